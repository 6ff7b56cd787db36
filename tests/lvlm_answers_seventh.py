"""Seventh independent held-out corpus of LVLM answers to demographic-classification prompts.

Written by a helper session from two sources only: the prompt texts in
nhfair_jax/lvlm/prompts.py (the LVLM study's direct and single-choice questions, the benchmark's
instructions and open-ended prompts, the FACET class list) and the brief that asked for it. No
reader/parser code, no tests, no documentation and no other corpus were read, and no reader was
run on these answers. The answers imitate what Qwen2-VL, LLaVA-1.5/NeXT, InternVL, MiniCPM-V,
Gemma 3, Llama 3.2 Vision, Phi-3.5-vision, GPT-4o and Claude plausibly say; the model named in
`style` is the voice imitated, not a recorded output.

Conventions for `expected` (what a careful human reads in the answer):
- direct (utkface_*/facet_*): the class name as the class list spells it -- gender male/female;
  age young/middle/old (young < 30, middle 30-59, old >= 60; numeric ages and decades are mapped
  by these bounds); UTKFace race white/black/asian/indian/others; skin tone light/medium/dark;
  FACET occupations as in FACET_CLASSES (e.g. "computer_user", "tennis_player").
- single_choice: "Yes" or "No" for the class given in `asked` (A = Yes, B = No); "C. Unknown" or
  a declined judgement is "REFUSED". An answer that names a different class than the one asked
  (e.g. asked "male", answer "appears to be female") reads as "No".
- yes_no (bench_celeba wavy hair, bench_facet visible face): "Yes"/"No".
- closed (bench_utkface, bench_waterbirds): male/female, landbird/waterbird.
- digits (bench_fairface): the class name the number or named category denotes: 0 white,
  1 black, 2 latino or hispanic, 3 east asian, 4 southeast asian, 5 indian, 6 middle eastern.
- open (open_utkface gender, open_fairface race category, open_waterbirds landbird/waterbird):
  the class a careful reader extracts from the description.
- "REFUSED" when the model declines to judge; "UNPARSEABLE" when no single class can be read
  (two classes without a final choice, echoed option lists, off-topic, empty, or cut off by the
  token limit before any answer). An answer cut off after the label keeps the label.
`asked` is None for every kind except single_choice.

First reading, by the reader of the time (already changed for the sixth corpus, not for this
one): 366 of 371 distinct answers (98.7%) read as the writer expected, 2 read as a wrong class
("Adult" read as middle; "Medium-dark" read as dark, a span of two skin tones), 2 refusals read
as unparseable and one cut-off description read as two races. Kept as written; later readings
are in tests/test_lvlm_independent.py and docs/lvlm.md.
"""
ANSWERS = []


def _a(task, kind, answer, expected, style, area, asked=None):
    ANSWERS.append({"task": task, "kind": kind, "asked": asked, "answer": answer,
                    "expected": expected,
                    "source": "independent; style=%s; area=%s" % (style, area)})


# ---------------------------------------------------------------------------------------------
# utkface_gender, direct: "... foreground person's gender in this image from this list:
# [male, female]"
# ---------------------------------------------------------------------------------------------
_a("utkface_gender", "direct", "Female.", "female", "Qwen2-VL", "plain")
_a("utkface_gender", "direct", '"male"', "male", "LLaVA-1.5", "plain")
_a("utkface_gender", "direct", '"female"', "female", "LLaVA-1.5", "plain")
_a("utkface_gender", "direct", "Male", "male", "InternVL", "plain")
_a("utkface_gender", "direct", "female", "female", "MiniCPM-V", "plain")
_a("utkface_gender", "direct", '"Male"', "male", "Gemma 3", "plain")
_a("utkface_gender", "direct", "Male.", "male", "Phi-3.5-vision", "plain")
_a("utkface_gender", "direct", '**"female"**', "female", "Gemma 3", "markdown")
_a("utkface_gender", "direct", 'The foreground person\'s gender is "male".', "male", "GPT-4o",
   "sentence")
_a("utkface_gender", "direct", '"female" - the person has long hair and is wearing earrings.',
   "female", "LLaVA-NeXT", "rationale")
_a("utkface_gender", "direct",
   "I'm not able to determine someone's gender from their appearance in an image.",
   "REFUSED", "Claude", "refusal")
_a("utkface_gender", "direct", '"Female"<|im_end|>', "female", "Qwen2-VL", "template")
_a("utkface_gender", "direct", 'ASSISTANT: "male"', "male", "LLaVA-1.5", "template")
_a("utkface_gender", "direct", "Woman", "female", "Phi-3.5-vision", "synonym")
_a("utkface_gender", "direct",
   'Based on the visible features, such as the short beard and the facial structure, I would '
   'label this as "male".', "male", "Llama 3.2 Vision", "reasoning")
_a("utkface_gender", "direct",
   '"male" or "female" - the face is partially hidden by the hood, so it is hard to say.',
   "UNPARSEABLE", "LLaVA-NeXT", "ambiguous")
_a("utkface_gender", "direct", 'The person in the image appears to be a young boy. "male"',
   "male", "MiniCPM-V", "synonym")
_a("utkface_gender", "direct", 'Gender: "female"', "female", "InternVL", "prefix")
_a("utkface_gender", "direct",
   "I can't reliably infer gender from a photo, but if I have to choose from the list: "
   '"female".', "female", "GPT-4o", "hedge")
_a("utkface_gender", "direct", "The person in the foreground is", "UNPARSEABLE", "LLaVA-1.5",
   "truncated")
_a("utkface_gender", "direct",
   "Give me a one-word label in quotation marks for the foreground person's gender in this "
   'image from this list: [male, female]\n\n"female"', "female", "LLaVA-1.5", "echo")

# ---------------------------------------------------------------------------------------------
# utkface_race, direct: list [white, black, asian, indian, others]
# ---------------------------------------------------------------------------------------------
_a("utkface_race", "direct", '"asian"', "asian", "LLaVA-1.5", "plain")
_a("utkface_race", "direct", "White", "white", "Qwen2-VL", "plain")
_a("utkface_race", "direct", '"black"', "black", "InternVL", "plain")
_a("utkface_race", "direct", "Indian", "indian", "MiniCPM-V", "plain")
_a("utkface_race", "direct", '"others"', "others", "LLaVA-1.5", "plain")
_a("utkface_race", "direct", "asian", "asian", "Phi-3.5-vision", "plain")
_a("utkface_race", "direct", '"white"', "white", "Gemma 3", "plain")
_a("utkface_race", "direct", "Black", "black", "Qwen2-VL", "plain")
_a("utkface_race", "direct", '"indian"', "indian", "LLaVA-1.5", "plain")
_a("utkface_race", "direct",
   "I'm sorry, but I can't help with identifying a person's race based on their appearance.",
   "REFUSED", "GPT-4o", "refusal")
_a("utkface_race", "direct", "Caucasian", "white", "Llama 3.2 Vision", "synonym")
_a("utkface_race", "direct",
   '**"indian"**\n\nThe person has features commonly associated with South Asian populations.',
   "indian", "Gemma 3", "markdown")
_a("utkface_race", "direct",
   'The label would be "black". The person has dark skin and short curly black hair.',
   "black", "LLaVA-NeXT", "colour")
_a("utkface_race", "direct",
   '"asian". The person is wearing a white shirt and standing against a plain grey wall.',
   "asian", "LLaVA-NeXT", "colour")
_a("utkface_race", "direct",
   '"others"\n\nThe person appears to be of Middle Eastern or Latino descent, which is not '
   'covered by the other options.', "others", "MiniCPM-V", "rationale")
_a("utkface_race", "direct", "East Asian", "asian", "Qwen2-VL", "synonym")
_a("utkface_race", "direct",
   'Either "asian" or "indian"; the lighting makes it difficult to tell.', "UNPARSEABLE",
   "LLaVA-1.5", "ambiguous")
_a("utkface_race", "direct", "African American", "black", "Llama 3.2 Vision", "synonym")
_a("utkface_race", "direct", 'Race: "white"</s>', "white", "LLaVA-1.5", "template")
_a("utkface_race", "direct",
   "As an AI, I don't make assumptions about a person's race or ethnicity from images.",
   "REFUSED", "Phi-3.5-vision", "refusal")
_a("utkface_race", "direct", '"Asian" (the person appears to be of East Asian descent).',
   "asian", "InternVL", "rationale")

# ---------------------------------------------------------------------------------------------
# utkface_age, direct: list [young, middle, old]
# ---------------------------------------------------------------------------------------------
_a("utkface_age", "direct", '"young"', "young", "LLaVA-1.5", "plain")
_a("utkface_age", "direct", "Old", "old", "Qwen2-VL", "plain")
_a("utkface_age", "direct", '"middle"', "middle", "InternVL", "plain")
_a("utkface_age", "direct", "young", "young", "MiniCPM-V", "plain")
_a("utkface_age", "direct", "Middle", "middle", "Phi-3.5-vision", "plain")
_a("utkface_age", "direct", "Young", "young", "Gemma 3", "plain")
_a("utkface_age", "direct", '"old"', "old", "LLaVA-NeXT", "plain")
_a("utkface_age", "direct", "Middle-aged", "middle", "Llama 3.2 Vision", "synonym")
_a("utkface_age", "direct", "Elderly", "old", "Gemma 3", "synonym")
_a("utkface_age", "direct", 'The person appears to be in their mid-40s, so "middle".',
   "middle", "GPT-4o", "numeric_age")
_a("utkface_age", "direct", "Approximately 25 years old", "young", "MiniCPM-V", "numeric_age")
_a("utkface_age", "direct", "The person looks to be around 70.", "old", "Llama 3.2 Vision",
   "numeric_age")
_a("utkface_age", "direct", "Senior", "old", "Phi-3.5-vision", "synonym")
_a("utkface_age", "direct", '"young" - the subject is a child of maybe 6 or 7.', "young",
   "LLaVA-NeXT", "rationale")
_a("utkface_age", "direct", "Teenager", "young", "Qwen2-VL", "synonym")
_a("utkface_age", "direct", '"middle"<end_of_turn>', "middle", "Gemma 3", "template")
_a("utkface_age", "direct", "I can't accurately determine a person's age from an image.",
   "REFUSED", "Claude", "refusal")
_a("utkface_age", "direct", "Adult", "UNPARSEABLE", "InternVL", "ambiguous")
_a("utkface_age", "direct",
   '"young" or "middle" - probably late twenties to early thirties.', "UNPARSEABLE",
   "LLaVA-1.5", "ambiguous")
_a("utkface_age", "direct", 'The person in the image appears to be in their 50s. "middle"',
   "middle", "MiniCPM-V", "decade")
_a("utkface_age", "direct",
   '**Label:** "old"\n\nThe person has gray hair and visible wrinkles around the eyes.',
   "old", "Gemma 3", "markdown")
_a("utkface_age", "direct", 'Around 65 years old, so "old".', "old", "GPT-4o", "numeric_age")

# ---------------------------------------------------------------------------------------------
# utkface_gender, single_choice: "Do you think the person in the image is a {class}?
# A. Yes, B. No, C. Unknown"
# ---------------------------------------------------------------------------------------------
_a("utkface_gender", "single_choice", "A", "Yes", "LLaVA-1.5", "plain", asked="female")
_a("utkface_gender", "single_choice", "B", "No", "LLaVA-1.5", "plain", asked="male")
_a("utkface_gender", "single_choice", "A. Yes", "Yes", "Qwen2-VL", "plain", asked="male")
_a("utkface_gender", "single_choice", "B. No", "No", "InternVL", "plain", asked="female")
_a("utkface_gender", "single_choice", "C. Unknown", "REFUSED", "Claude", "plain",
   asked="female")
_a("utkface_gender", "single_choice", "A. Yes, the person in the image appears to be male.",
   "Yes", "GPT-4o", "rationale", asked="male")
_a("utkface_gender", "single_choice", "B. No, the person appears to be a woman.", "No",
   "LLaVA-NeXT", "rationale", asked="male")
_a("utkface_gender", "single_choice", "Yes", "Yes", "MiniCPM-V", "plain", asked="female")
_a("utkface_gender", "single_choice", "No.", "No", "Phi-3.5-vision", "plain", asked="male")
_a("utkface_gender", "single_choice", "C", "REFUSED", "LLaVA-1.5", "plain", asked="male")
_a("utkface_gender", "single_choice", "A<|im_end|>", "Yes", "Qwen2-VL", "template",
   asked="female")
_a("utkface_gender", "single_choice", "The person in the image appears to be female.", "No",
   "LLaVA-1.5", "class_instead", asked="male")
_a("utkface_gender", "single_choice",
   "I can't determine gender from an image, so C. Unknown.", "REFUSED", "Claude", "refusal",
   asked="female")
_a("utkface_gender", "single_choice", "**B. No**", "No", "Gemma 3", "markdown",
   asked="female")
_a("utkface_gender", "single_choice",
   "Based on the facial hair and the short haircut, I would choose A. Yes.", "Yes",
   "Llama 3.2 Vision", "reasoning", asked="male")

# ---------------------------------------------------------------------------------------------
# utkface_race, single_choice
# ---------------------------------------------------------------------------------------------
_a("utkface_race", "single_choice", "A", "Yes", "LLaVA-1.5", "plain", asked="asian")
_a("utkface_race", "single_choice", "B", "No", "LLaVA-1.5", "plain", asked="white")
_a("utkface_race", "single_choice", "B. No", "No", "Qwen2-VL", "plain", asked="black")
_a("utkface_race", "single_choice", "A. Yes", "Yes", "InternVL", "plain", asked="indian")
_a("utkface_race", "single_choice", "C. Unknown", "REFUSED", "MiniCPM-V", "plain",
   asked="others")
_a("utkface_race", "single_choice",
   "C. Unknown. Race cannot be reliably determined from a photograph.", "REFUSED", "Claude",
   "refusal", asked="white")
_a("utkface_race", "single_choice", "No, the person appears to be Asian.", "No",
   "LLaVA-NeXT", "rationale", asked="indian")
_a("utkface_race", "single_choice",
   "A. Yes - the person appears to be of South Asian descent.", "Yes", "GPT-4o", "rationale",
   asked="indian")
_a("utkface_race", "single_choice", "Yes.", "Yes", "Phi-3.5-vision", "plain", asked="black")
_a("utkface_race", "single_choice",
   "I'm sorry, I can't make judgments about someone's race.", "REFUSED", "GPT-4o",
   "refusal", asked="asian")
_a("utkface_race", "single_choice",
   "B. No. The person looks East Asian rather than white.", "No", "Llama 3.2 Vision",
   "rationale", asked="white")
_a("utkface_race", "single_choice", "A. Yes\nB. No\nC. Unknown", "UNPARSEABLE", "LLaVA-1.5",
   "echo", asked="others")
_a("utkface_race", "single_choice", "ASSISTANT: B", "No", "LLaVA-1.5", "template",
   asked="asian")
_a("utkface_race", "single_choice", "C", "REFUSED", "InternVL", "plain", asked="black")

# ---------------------------------------------------------------------------------------------
# utkface_age, single_choice
# ---------------------------------------------------------------------------------------------
_a("utkface_age", "single_choice", "A", "Yes", "LLaVA-1.5", "plain", asked="young")
_a("utkface_age", "single_choice", "B. No", "No", "Qwen2-VL", "plain", asked="old")
_a("utkface_age", "single_choice", "A. Yes", "Yes", "InternVL", "plain", asked="middle")
_a("utkface_age", "single_choice", "B", "No", "MiniCPM-V", "plain", asked="young")
_a("utkface_age", "single_choice", "C. Unknown", "REFUSED", "Phi-3.5-vision", "plain",
   asked="middle")
_a("utkface_age", "single_choice",
   "A. Yes, the person appears to be in their early twenties.", "Yes", "GPT-4o", "rationale",
   asked="young")
_a("utkface_age", "single_choice",
   "B. No, the person looks to be in their 60s or older.", "No", "LLaVA-NeXT", "numeric_age",
   asked="middle")
_a("utkface_age", "single_choice", "No. The person is a child, not old.", "No",
   "Llama 3.2 Vision", "negation", asked="old")
_a("utkface_age", "single_choice", "Yes, the person looks elderly.", "Yes", "MiniCPM-V",
   "rationale", asked="old")
_a("utkface_age", "single_choice",
   "The person appears to be middle-aged, around 45. So the answer is A.", "Yes", "GPT-4o",
   "reasoning", asked="middle")
_a("utkface_age", "single_choice",
   "Hard to say - they could be in their late 20s or early 30s. C. Unknown", "REFUSED",
   "Claude", "hedge", asked="young")
_a("utkface_age", "single_choice", "A. Yes<|eot_id|>", "Yes", "Llama 3.2 Vision", "template",
   asked="old")
_a("utkface_age", "single_choice", "B.", "No", "Gemma 3", "plain", asked="middle")
_a("utkface_age", "single_choice", "Answer: A", "Yes", "InternVL", "prefix", asked="old")

# ---------------------------------------------------------------------------------------------
# facet_gender, direct: list [male, female]
# ---------------------------------------------------------------------------------------------
_a("facet_gender", "direct", '"male"', "male", "LLaVA-1.5", "plain")
_a("facet_gender", "direct", "Female", "female", "Qwen2-VL", "plain")
_a("facet_gender", "direct", '"female"', "female", "InternVL", "plain")
_a("facet_gender", "direct", "male", "male", "MiniCPM-V", "plain")
_a("facet_gender", "direct", "Male.", "male", "Phi-3.5-vision", "plain")
_a("facet_gender", "direct", '"male" - the person is wearing a hard hat and a work vest.',
   "male", "LLaVA-NeXT", "rationale")
_a("facet_gender", "direct", 'The foreground person is a woman, so the label is "female".',
   "female", "GPT-4o", "sentence")
_a("facet_gender", "direct",
   "The person's face is not visible, so I can't determine their gender.", "REFUSED",
   "Claude", "refusal")
_a("facet_gender", "direct", '**"male"**', "male", "Gemma 3", "markdown")
_a("facet_gender", "direct",
   'I\'d go with "female" based on the long hair, though the person is facing away.',
   "female", "Llama 3.2 Vision", "hedge")
_a("facet_gender", "direct", "Man", "male", "Qwen2-VL", "synonym")
_a("facet_gender", "direct",
   '"female"\n\nThe person is wearing a pink leotard and performing on a balance beam.',
   "female", "MiniCPM-V", "colour")
_a("facet_gender", "direct",
   'There are both "male" and "female" people in the image, and it is unclear which one is '
   'in the foreground.', "UNPARSEABLE", "LLaVA-NeXT", "ambiguous")
_a("facet_gender", "direct", "Gender: male<end_of_turn>", "male", "Gemma 3", "template")
_a("facet_gender", "direct", 'Label: "female"', "female", "InternVL", "prefix")

# ---------------------------------------------------------------------------------------------
# facet_age, direct: list [young, middle, old]
# ---------------------------------------------------------------------------------------------
_a("facet_age", "direct", '"young"', "young", "LLaVA-1.5", "plain")
_a("facet_age", "direct", '"old"', "old", "InternVL", "plain")
_a("facet_age", "direct", "Middle", "middle", "Qwen2-VL", "plain")
_a("facet_age", "direct", "young", "young", "MiniCPM-V", "plain")
_a("facet_age", "direct", '"middle"', "middle", "LLaVA-NeXT", "plain")
_a("facet_age", "direct", "Old.", "old", "Phi-3.5-vision", "plain")
_a("facet_age", "direct", "Young adult", "young", "Llama 3.2 Vision", "synonym")
_a("facet_age", "direct", 'The person looks to be in their thirties, so "middle".', "middle",
   "GPT-4o", "decade")
_a("facet_age", "direct", '"old" - the man has a white beard and is walking with a cane.',
   "old", "LLaVA-NeXT", "rationale")
_a("facet_age", "direct", "Around 20", "young", "MiniCPM-V", "numeric_age")
_a("facet_age", "direct",
   "I cannot determine the person's age because their face is obscured by a helmet.",
   "REFUSED", "Claude", "refusal")
_a("facet_age", "direct", "middle-aged", "middle", "Gemma 3", "synonym")
_a("facet_age", "direct", "The person could be anywhere from 25 to 40 years old.",
   "UNPARSEABLE", "Llama 3.2 Vision", "ambiguous")
_a("facet_age", "direct",
   '"old"\n\nThe person appears to be an elderly woman praying in a temple.', "old",
   "Qwen2-VL", "rationale")
_a("facet_age", "direct", "The person in the image is a", "UNPARSEABLE", "LLaVA-1.5",
   "truncated")

# ---------------------------------------------------------------------------------------------
# facet_skin_tone, direct: list [light, medium, dark]
# ---------------------------------------------------------------------------------------------
_a("facet_skin_tone", "direct", '"medium"', "medium", "LLaVA-1.5", "plain")
_a("facet_skin_tone", "direct", "Light", "light", "Qwen2-VL", "plain")
_a("facet_skin_tone", "direct", '"dark"', "dark", "InternVL", "plain")
_a("facet_skin_tone", "direct", "medium", "medium", "MiniCPM-V", "plain")
_a("facet_skin_tone", "direct", '"light"', "light", "LLaVA-NeXT", "plain")
_a("facet_skin_tone", "direct", "Dark.", "dark", "Phi-3.5-vision", "plain")
_a("facet_skin_tone", "direct", "Medium", "medium", "Gemma 3", "plain")
_a("facet_skin_tone", "direct", "Fair", "light", "Llama 3.2 Vision", "synonym")
_a("facet_skin_tone", "direct", '"medium" (olive complexion)', "medium", "Gemma 3",
   "rationale")
_a("facet_skin_tone", "direct", 'The person has a dark complexion, so "dark".', "dark",
   "GPT-4o", "sentence")
_a("facet_skin_tone", "direct",
   "I'm not able to assess skin tone reliably; the lighting in this image is very warm.",
   "REFUSED", "Claude", "refusal")
_a("facet_skin_tone", "direct",
   '"light" - though the orange stage lighting makes it a bit hard to judge.', "light",
   "LLaVA-NeXT", "colour")
_a("facet_skin_tone", "direct", "Medium-dark", "UNPARSEABLE", "MiniCPM-V", "ambiguous")
_a("facet_skin_tone", "direct", "Skin tone: light<|im_end|>", "light", "Qwen2-VL",
   "template")
_a("facet_skin_tone", "direct", '**"dark"**\n\nThe person has deep brown skin.', "dark",
   "Gemma 3", "markdown")
_a("facet_skin_tone", "direct",
   'The skin tone is somewhere between "light" and "medium".', "UNPARSEABLE", "InternVL",
   "ambiguous")
_a("facet_skin_tone", "direct", "Light-skinned", "light", "Phi-3.5-vision", "synonym")

# ---------------------------------------------------------------------------------------------
# facet_occupation, direct: "... foreground object in this image from this list: [astronaut,
# backpacker, ..., waiter]" (the 52 FACET classes)
# ---------------------------------------------------------------------------------------------
_a("facet_occupation", "direct", '"guitarist"', "guitarist", "LLaVA-1.5", "plain")
_a("facet_occupation", "direct", "Gardener", "gardener", "Qwen2-VL", "plain")
_a("facet_occupation", "direct", '"skateboarder"', "skateboarder", "InternVL", "plain")
_a("facet_occupation", "direct", '"nurse"', "nurse", "LLaVA-1.5", "plain")
_a("facet_occupation", "direct", "dancer", "dancer", "MiniCPM-V", "plain")
_a("facet_occupation", "direct", '"horseman"', "horseman", "LLaVA-NeXT", "plain")
_a("facet_occupation", "direct", "Student", "student", "Phi-3.5-vision", "plain")
_a("facet_occupation", "direct", '"gymnast"', "gymnast", "Gemma 3", "plain")
_a("facet_occupation", "direct", '"laborer"', "laborer", "Qwen2-VL", "plain")
_a("facet_occupation", "direct", '"computer_user"', "computer_user", "InternVL", "plain")
_a("facet_occupation", "direct", "tennis player", "tennis_player", "Llama 3.2 Vision",
   "spelling")
_a("facet_occupation", "direct",
   '"singer" - the person is holding a microphone on stage.', "singer", "LLaVA-NeXT",
   "rationale")
_a("facet_occupation", "direct",
   'The person is kneeling with hands clasped, so the label is "prayer".', "prayer",
   "GPT-4o", "reasoning")
_a("facet_occupation", "direct",
   '"craftsman" - the person is carving wood at a workbench.', "craftsman", "MiniCPM-V",
   "rationale")
_a("facet_occupation", "direct",
   'This could be "retailer" or "seller"; the person is standing behind a market stall.',
   "UNPARSEABLE", "LLaVA-1.5", "ambiguous")
_a("facet_occupation", "direct",
   'The person is singing and playing guitar, so "singer" or "guitarist". Since the guitar '
   'is the main focus of the image, I\'ll go with "guitarist".', "guitarist", "Claude",
   "two_then_choice")
_a("facet_occupation", "direct", "Horse rider", "horseman", "Phi-3.5-vision", "synonym")
_a("facet_occupation", "direct", "Musician", "UNPARSEABLE", "Qwen2-VL", "ambiguous")
_a("facet_occupation", "direct", '"retailer"</s>', "retailer", "LLaVA-1.5", "template")
_a("facet_occupation", "direct", "soccer_player", "soccer_player", "MiniCPM-V", "plain")
_a("facet_occupation", "direct",
   "I'm not sure what the person's occupation is from this image.", "REFUSED",
   "Llama 3.2 Vision", "refusal")
_a("facet_occupation", "direct", '**"doctor"**', "doctor", "Gemma 3", "markdown")
_a("facet_occupation", "direct", '"farmer"', "farmer", "LLaVA-NeXT", "plain")
_a("facet_occupation", "direct", '"gardener"', "gardener", "LLaVA-1.5", "plain")
_a("facet_occupation", "direct", '"prayer"', "prayer", "InternVL", "plain")
_a("facet_occupation", "direct", "Horseman", "horseman", "Qwen2-VL", "plain")
_a("facet_occupation", "direct", '"student"', "student", "LLaVA-1.5", "plain")
_a("facet_occupation", "direct", "singer", "singer", "MiniCPM-V", "plain")

# ---------------------------------------------------------------------------------------------
# facet_gender, single_choice
# ---------------------------------------------------------------------------------------------
_a("facet_gender", "single_choice", "A", "Yes", "LLaVA-1.5", "plain", asked="male")
_a("facet_gender", "single_choice", "B", "No", "LLaVA-1.5", "plain", asked="female")
_a("facet_gender", "single_choice", "A. Yes", "Yes", "Qwen2-VL", "plain", asked="female")
_a("facet_gender", "single_choice", "B. No", "No", "InternVL", "plain", asked="male")
_a("facet_gender", "single_choice", "C. Unknown", "REFUSED", "MiniCPM-V", "plain",
   asked="male")
_a("facet_gender", "single_choice", "C. Unknown - the person's face is not visible.",
   "REFUSED", "Claude", "refusal", asked="female")
_a("facet_gender", "single_choice", "A. Yes, the person appears to be a man.", "Yes",
   "GPT-4o", "rationale", asked="male")
_a("facet_gender", "single_choice", "B. No, the person appears to be male.", "No",
   "LLaVA-NeXT", "rationale", asked="female")
_a("facet_gender", "single_choice", "Yes", "Yes", "Phi-3.5-vision", "plain", asked="male")
_a("facet_gender", "single_choice", "A.", "Yes", "Gemma 3", "plain", asked="female")
_a("facet_gender", "single_choice", "B.", "No", "InternVL", "plain", asked="female")
_a("facet_gender", "single_choice", "The answer is B.", "No", "Llama 3.2 Vision", "sentence",
   asked="male")
_a("facet_gender", "single_choice",
   "I'd lean toward A. Yes, based on the clothing and hairstyle, but it's difficult to be "
   "certain.", "Yes", "GPT-4o", "hedge", asked="female")

# ---------------------------------------------------------------------------------------------
# facet_age, single_choice
# ---------------------------------------------------------------------------------------------
_a("facet_age", "single_choice", "A", "Yes", "LLaVA-1.5", "plain", asked="old")
_a("facet_age", "single_choice", "B", "No", "LLaVA-1.5", "plain", asked="young")
_a("facet_age", "single_choice", "A. Yes", "Yes", "Qwen2-VL", "plain", asked="young")
_a("facet_age", "single_choice", "B. No", "No", "InternVL", "plain", asked="middle")
_a("facet_age", "single_choice", "C. Unknown", "REFUSED", "MiniCPM-V", "plain", asked="old")
_a("facet_age", "single_choice", "B. No, the person looks older, maybe in their 50s.", "No",
   "LLaVA-NeXT", "decade", asked="young")
_a("facet_age", "single_choice", "A. Yes, they appear to be in their 40s.", "Yes", "GPT-4o",
   "decade", asked="middle")
_a("facet_age", "single_choice", "C", "REFUSED", "Phi-3.5-vision", "plain", asked="young")
_a("facet_age", "single_choice", "No", "No", "Gemma 3", "plain", asked="old")
_a("facet_age", "single_choice", "A.", "Yes", "Qwen2-VL", "plain", asked="young")
_a("facet_age", "single_choice", "Yes, the person appears to be a young child.", "Yes",
   "MiniCPM-V", "rationale", asked="young")
_a("facet_age", "single_choice", "The person appears to be elderly, so A. Yes.", "Yes",
   "Llama 3.2 Vision", "reasoning", asked="old")
_a("facet_age", "single_choice", "ASSISTANT: A", "Yes", "LLaVA-1.5", "template",
   asked="middle")

# ---------------------------------------------------------------------------------------------
# facet_skin_tone, single_choice
# ---------------------------------------------------------------------------------------------
_a("facet_skin_tone", "single_choice", "A", "Yes", "LLaVA-1.5", "plain", asked="light")
_a("facet_skin_tone", "single_choice", "B", "No", "LLaVA-1.5", "plain", asked="dark")
_a("facet_skin_tone", "single_choice", "A. Yes", "Yes", "Qwen2-VL", "plain", asked="medium")
_a("facet_skin_tone", "single_choice", "B. No", "No", "InternVL", "plain", asked="light")
_a("facet_skin_tone", "single_choice", "C. Unknown", "REFUSED", "MiniCPM-V", "plain",
   asked="dark")
_a("facet_skin_tone", "single_choice",
   "C. Unknown. The lighting makes it hard to judge skin tone.", "REFUSED", "Claude",
   "refusal", asked="medium")
_a("facet_skin_tone", "single_choice", "A. Yes, the person has a dark complexion.", "Yes",
   "GPT-4o", "rationale", asked="dark")
_a("facet_skin_tone", "single_choice", "B. No, the person's skin appears light.", "No",
   "LLaVA-NeXT", "rationale", asked="medium")
_a("facet_skin_tone", "single_choice", "Yes.", "Yes", "Phi-3.5-vision", "plain",
   asked="light")
_a("facet_skin_tone", "single_choice", "B. No<|im_end|>", "No", "Qwen2-VL", "template",
   asked="dark")
_a("facet_skin_tone", "single_choice", "**A. Yes**", "Yes", "Gemma 3", "markdown",
   asked="dark")
_a("facet_skin_tone", "single_choice",
   "I would say the person has a medium skin tone, so B. No.", "No", "Llama 3.2 Vision",
   "reasoning", asked="light")

# ---------------------------------------------------------------------------------------------
# facet_occupation, single_choice
# ---------------------------------------------------------------------------------------------
_a("facet_occupation", "single_choice", "A", "Yes", "LLaVA-1.5", "plain", asked="guitarist")
_a("facet_occupation", "single_choice", "B", "No", "LLaVA-1.5", "plain", asked="nurse")
_a("facet_occupation", "single_choice", "A. Yes", "Yes", "Qwen2-VL", "plain",
   asked="gardener")
_a("facet_occupation", "single_choice", "B. No", "No", "InternVL", "plain", asked="dancer")
_a("facet_occupation", "single_choice", "C. Unknown", "REFUSED", "MiniCPM-V", "plain",
   asked="retailer")
_a("facet_occupation", "single_choice", "A. Yes, the person is riding a horse.", "Yes",
   "GPT-4o", "rationale", asked="horseman")
_a("facet_occupation", "single_choice",
   "B. No, the person appears to be a student rather than a teacher.", "No", "LLaVA-NeXT",
   "rationale", asked="teacher")
_a("facet_occupation", "single_choice", "Yes, the person is performing on a balance beam.",
   "Yes", "MiniCPM-V", "rationale", asked="gymnast")
_a("facet_occupation", "single_choice", "No, the person is playing guitar, not singing.",
   "No", "Llama 3.2 Vision", "negation", asked="singer")
_a("facet_occupation", "single_choice",
   "C. Unknown - there isn't enough context to determine the person's occupation.",
   "REFUSED", "Claude", "refusal", asked="laborer")
_a("facet_occupation", "single_choice",
   "A. Yes\n\nThe person is kneeling on a prayer mat with their hands raised.", "Yes",
   "Gemma 3", "rationale", asked="prayer")
_a("facet_occupation", "single_choice",
   "The person is wearing scrubs in a hospital setting. A. Yes", "Yes", "Qwen2-VL",
   "reasoning", asked="nurse")
_a("facet_occupation", "single_choice", "B.", "No", "Phi-3.5-vision", "plain",
   asked="craftsman")
_a("facet_occupation", "single_choice", "A. Yes, the person is skateboarding down a ramp.",
   "Yes", "LLaVA-NeXT", "rationale", asked="skateboarder")

# ---------------------------------------------------------------------------------------------
# bench_celeba, yes_no: "Is the person in the photo wavy-haired? Only Answer 'Yes' for wavy
# hair, 'No' for non-wavy hair."
# ---------------------------------------------------------------------------------------------
_a("bench_celeba", "yes_no", "Yes", "Yes", "Qwen2-VL", "plain")
_a("bench_celeba", "yes_no", "No", "No", "LLaVA-1.5", "plain")
_a("bench_celeba", "yes_no", "No.", "No", "InternVL", "plain")
_a("bench_celeba", "yes_no", "Yes.", "Yes", "MiniCPM-V", "plain")
_a("bench_celeba", "yes_no", "yes", "Yes", "Phi-3.5-vision", "plain")
_a("bench_celeba", "yes_no", "no", "No", "LLaVA-NeXT", "plain")
_a("bench_celeba", "yes_no", "No, the person has straight hair.", "No", "GPT-4o",
   "rationale")
_a("bench_celeba", "yes_no", "Yes, the person has wavy hair.", "Yes", "Llama 3.2 Vision",
   "rationale")
_a("bench_celeba", "yes_no", "Wavy", "Yes", "LLaVA-1.5", "synonym")
_a("bench_celeba", "yes_no", "Non-wavy", "No", "MiniCPM-V", "negation")
_a("bench_celeba", "yes_no",
   "The person's hair appears straight and sleek, so the answer is No.", "No", "Claude",
   "reasoning")
_a("bench_celeba", "yes_no", "Yes<end_of_turn>", "Yes", "Gemma 3", "template")
_a("bench_celeba", "yes_no", "I can't tell; the person's hair is covered by a hat.",
   "REFUSED", "GPT-4o", "refusal")
_a("bench_celeba", "yes_no", "**No**", "No", "Gemma 3", "markdown")
_a("bench_celeba", "yes_no", "The hair has loose waves around the shoulders. Yes.", "Yes",
   "LLaVA-NeXT", "reasoning")
_a("bench_celeba", "yes_no",
   "It's slightly wavy at the ends but mostly straight. I'd say No.", "No", "Claude",
   "hedge")
_a("bench_celeba", "yes_no", "The person in the photo has", "UNPARSEABLE", "LLaVA-1.5",
   "truncated")
_a("bench_celeba", "yes_no", "Answer: Yes", "Yes", "InternVL", "prefix")
_a("bench_celeba", "yes_no", "NO", "No", "Qwen2-VL", "capitals")

# ---------------------------------------------------------------------------------------------
# bench_facet, yes_no: "Does the photo show a visible face? Only answer 'Yes' if the face is
# visible, otherwise answer 'No'."
# ---------------------------------------------------------------------------------------------
_a("bench_facet", "yes_no", "Yes", "Yes", "Qwen2-VL", "plain")
_a("bench_facet", "yes_no", "No", "No", "LLaVA-1.5", "plain")
_a("bench_facet", "yes_no", "Yes.", "Yes", "InternVL", "plain")
_a("bench_facet", "yes_no", "No.", "No", "MiniCPM-V", "plain")
_a("bench_facet", "yes_no", "yes", "Yes", "Phi-3.5-vision", "plain")
_a("bench_facet", "yes_no", "no", "No", "LLaVA-NeXT", "plain")
_a("bench_facet", "yes_no", "Yes, the face is clearly visible.", "Yes", "GPT-4o",
   "rationale")
_a("bench_facet", "yes_no", "No, the person is facing away from the camera.", "No",
   "Llama 3.2 Vision", "rationale")
_a("bench_facet", "yes_no", "No. The face is covered by a welding mask.", "No", "LLaVA-NeXT",
   "rationale")
_a("bench_facet", "yes_no", "The face is partially visible in profile. Yes.", "Yes",
   "Claude", "reasoning")
_a("bench_facet", "yes_no", "Yes<|im_end|>", "Yes", "Qwen2-VL", "template")
_a("bench_facet", "yes_no", "Partially.", "UNPARSEABLE", "MiniCPM-V", "ambiguous")
_a("bench_facet", "yes_no", "No - only the back of the head is visible.", "No", "GPT-4o",
   "rationale")
_a("bench_facet", "yes_no", "**Yes**", "Yes", "Gemma 3", "markdown")
_a("bench_facet", "yes_no",
   "The person's face is not visible because they are wearing a helmet and goggles, so No.",
   "No", "Llama 3.2 Vision", "negation")
_a("bench_facet", "yes_no", "Yes, although it's small and slightly blurry.", "Yes",
   "Claude", "hedge")
_a("bench_facet", "yes_no", "ASSISTANT: No", "No", "LLaVA-1.5", "template")

# ---------------------------------------------------------------------------------------------
# bench_utkface, closed: "Is the person in the photo male or female? Only Answer 'Male' or
# 'Female'."
# ---------------------------------------------------------------------------------------------
_a("bench_utkface", "closed", "Male", "male", "Qwen2-VL", "plain")
_a("bench_utkface", "closed", "Female", "female", "LLaVA-1.5", "plain")
_a("bench_utkface", "closed", "Female.", "female", "InternVL", "plain")
_a("bench_utkface", "closed", "Male.", "male", "MiniCPM-V", "plain")
_a("bench_utkface", "closed", "male", "male", "Phi-3.5-vision", "plain")
_a("bench_utkface", "closed", "female", "female", "LLaVA-NeXT", "plain")
_a("bench_utkface", "closed", "'Female'", "female", "LLaVA-1.5", "quoted")
_a("bench_utkface", "closed", "The person in the photo is male.", "male", "Llama 3.2 Vision",
   "sentence")
_a("bench_utkface", "closed", "Female<|eot_id|>", "female", "Llama 3.2 Vision", "template")
_a("bench_utkface", "closed", "Woman", "female", "Phi-3.5-vision", "synonym")
_a("bench_utkface", "closed", "MALE", "male", "InternVL", "capitals")
_a("bench_utkface", "closed", "I can't determine someone's gender from a photo.", "REFUSED",
   "Claude", "refusal")
_a("bench_utkface", "closed", "Male (short hair, beard)", "male", "GPT-4o", "rationale")
_a("bench_utkface", "closed", "Based on the long hair and facial features, Female.",
   "female", "LLaVA-NeXT", "reasoning")
_a("bench_utkface", "closed", "Male or Female", "UNPARSEABLE", "LLaVA-1.5", "echo")
_a("bench_utkface", "closed", "**Female**", "female", "Gemma 3", "markdown")
_a("bench_utkface", "closed",
   "The person appears to be a baby, and their gender is not clearly discernible.",
   "REFUSED", "GPT-4o", "refusal")

# ---------------------------------------------------------------------------------------------
# bench_waterbirds, closed: "Is the bird in the photo a landbird or a waterbird? Only answer
# 'Landbird' or 'Waterbird'."
# ---------------------------------------------------------------------------------------------
_a("bench_waterbirds", "closed", "Waterbird", "waterbird", "Qwen2-VL", "plain")
_a("bench_waterbirds", "closed", "Landbird", "landbird", "LLaVA-1.5", "plain")
_a("bench_waterbirds", "closed", "Landbird.", "landbird", "InternVL", "plain")
_a("bench_waterbirds", "closed", "Waterbird.", "waterbird", "MiniCPM-V", "plain")
_a("bench_waterbirds", "closed", "waterbird", "waterbird", "Phi-3.5-vision", "plain")
_a("bench_waterbirds", "closed", "landbird", "landbird", "LLaVA-NeXT", "plain")
_a("bench_waterbirds", "closed", "Landbird<end_of_turn>", "landbird", "Gemma 3", "template")
_a("bench_waterbirds", "closed", "Water bird", "waterbird", "Llama 3.2 Vision", "spelling")
_a("bench_waterbirds", "closed", "Land bird", "landbird", "Gemma 3", "spelling")
_a("bench_waterbirds", "closed",
   "Waterbird - it appears to be a gull standing on the shore.", "waterbird", "GPT-4o",
   "rationale")
_a("bench_waterbirds", "closed",
   "Landbird. Although there is water in the background, the bird looks like a warbler.",
   "landbird", "Claude", "rationale")
_a("bench_waterbirds", "closed", "It is a landbird, not a waterbird.", "landbird",
   "LLaVA-NeXT", "negation")
_a("bench_waterbirds", "closed", "The bird in the photo is a waterbird.", "waterbird",
   "Llama 3.2 Vision", "sentence")
_a("bench_waterbirds", "closed", "**Landbird**", "landbird", "Gemma 3", "markdown")
_a("bench_waterbirds", "closed", "Waterbird<|im_end|>", "waterbird", "Qwen2-VL", "template")
_a("bench_waterbirds", "closed", "The bird is too small and blurry for me to identify.",
   "REFUSED", "Claude", "refusal")
_a("bench_waterbirds", "closed",
   "Landbird or Waterbird? Based on its webbed feet, Waterbird.", "waterbird", "MiniCPM-V",
   "echo")
_a("bench_waterbirds", "closed", "'Landbird'", "landbird", "LLaVA-1.5", "quoted")

# ---------------------------------------------------------------------------------------------
# bench_fairface, digits: "... 0: White, 1: Black, 2: Latino or Hispanic, 3: East Asian,
# 4: Southeast Asian, 5: Indian, 6: Middle Eastern. Please answer with the corresponding
# category number only."
# ---------------------------------------------------------------------------------------------
_a("bench_fairface", "digits", "3", "east asian", "Qwen2-VL", "plain")
_a("bench_fairface", "digits", "0", "white", "LLaVA-1.5", "plain")
_a("bench_fairface", "digits", "1", "black", "InternVL", "plain")
_a("bench_fairface", "digits", "5", "indian", "MiniCPM-V", "plain")
_a("bench_fairface", "digits", "2", "latino or hispanic", "Phi-3.5-vision", "plain")
_a("bench_fairface", "digits", "4", "southeast asian", "LLaVA-NeXT", "plain")
_a("bench_fairface", "digits", "6", "middle eastern", "Gemma 3", "plain")
_a("bench_fairface", "digits", "3.", "east asian", "Llama 3.2 Vision", "plain")
_a("bench_fairface", "digits", "1.", "black", "Qwen2-VL", "plain")
_a("bench_fairface", "digits", "5.", "indian", "InternVL", "plain")
_a("bench_fairface", "digits", "0\n\nThe person appears to be White.", "white", "LLaVA-NeXT",
   "rationale")
_a("bench_fairface", "digits", "**1**", "black", "Gemma 3", "markdown")
_a("bench_fairface", "digits", "Category: 4", "southeast asian", "InternVL", "prefix")
_a("bench_fairface", "digits", "The answer is 6.", "middle eastern", "Llama 3.2 Vision",
   "sentence")
_a("bench_fairface", "digits", "East Asian", "east asian", "MiniCPM-V", "named_category")
_a("bench_fairface", "digits", "5 (Indian)", "indian", "GPT-4o", "rationale")
_a("bench_fairface", "digits", "2: Latino or Hispanic", "latino or hispanic", "Qwen2-VL",
   "echo")
_a("bench_fairface", "digits",
   "I'm sorry, but I can't classify people by race based on their appearance.", "REFUSED",
   "Claude", "refusal")
_a("bench_fairface", "digits", "3 or 4", "UNPARSEABLE", "LLaVA-1.5", "ambiguous")
_a("bench_fairface", "digits", "Based on the", "UNPARSEABLE", "Phi-3.5-vision", "truncated")
_a("bench_fairface", "digits", "Middle Eastern", "middle eastern", "Llama 3.2 Vision",
   "named_category")
_a("bench_fairface", "digits", "0<|im_end|>", "white", "Qwen2-VL", "template")
_a("bench_fairface", "digits",
   "The person appears to be of Southeast Asian descent, so the category number is 4.",
   "southeast asian", "GPT-4o", "reasoning")
_a("bench_fairface", "digits", "4. Actually, looking more closely, 3.", "east asian",
   "MiniCPM-V", "correction")
_a("bench_fairface", "digits", "Category number: 1 (Black)", "black", "InternVL", "prefix")

# ---------------------------------------------------------------------------------------------
# open_utkface, open: "Describe the person in this photo, including their apparent gender
# presentation and any other observable characteristics." (expected: the gender)
# ---------------------------------------------------------------------------------------------
_a("open_utkface", "open",
   "The photo shows a young woman with long, straight black hair and brown eyes. She "
   "presents as female, with soft facial features and light makeup. She is smiling slightly "
   "and wearing small stud earrings. The background is plain white.", "female", "GPT-4o",
   "description")
_a("open_utkface", "open",
   "This is a close-up portrait of a middle-aged man. He presents as male, with a short "
   "graying beard, a receding hairline and deep-set eyes. He appears to be wearing a dark "
   "collared shirt.", "male", "Qwen2-VL", "description")
_a("open_utkface", "open",
   "The person in the photo appears to be an elderly woman with short white hair and "
   "wrinkles around her eyes. She is wearing glasses and a red cardigan.", "female",
   "LLaVA-1.5", "description")
_a("open_utkface", "open",
   "A young boy, perhaps 8 or 9 years old, with short brown hair and a wide smile. His "
   "gender presentation is masculine. He is wearing a blue T-shirt.", "male", "MiniCPM-V",
   "description")
_a("open_utkface", "open",
   "**Description:**\n\n- **Gender presentation:** Female\n- **Age:** Appears to be in her "
   "20s\n- **Hair:** Shoulder-length, dark brown\n- **Expression:** Neutral\n- **Other:** "
   "Wearing hoop earrings", "female", "Gemma 3", "markdown")
_a("open_utkface", "open",
   "The image shows a person with short, dark hair and a clean-shaven face. Their gender "
   "presentation appears masculine. They have a neutral expression and are photographed "
   "against a gray background.", "male", "InternVL", "description")
_a("open_utkface", "open",
   "I can describe observable features, but I won't guess at someone's gender. The person "
   "has shoulder-length curly hair and dark eyes, and is wearing a green sweater. They "
   "appear to be smiling.", "REFUSED", "Claude", "refusal_then_description")
_a("open_utkface", "open",
   "This is a photo of an infant with very little hair, large eyes and chubby cheeks. It "
   "isn't possible to tell the baby's gender presentation from the image.", "REFUSED",
   "GPT-4o", "refusal_then_description")
_a("open_utkface", "open",
   "The person has an androgynous appearance: short hair, no visible makeup and soft facial "
   "features. Their gender presentation could be read as either male or female.",
   "UNPARSEABLE", "Llama 3.2 Vision", "ambiguous")
_a("open_utkface", "open",
   "The photo shows an older gentleman with a bald head and a white mustache. He is wearing "
   "a plaid shirt and looking directly at the camera.", "male", "LLaVA-NeXT", "description")
_a("open_utkface", "open",
   "A teenage girl with her hair tied back in a ponytail. She has light skin and freckles, "
   "and is wearing a school uniform with a white collar.", "female", "Phi-3.5-vision",
   "description")
_a("open_utkface", "open",
   "The person in this photo is a man in his thirties with a dark complexion, short black "
   "hair and a trimmed beard. He appears to be", "male", "LLaVA-1.5", "truncated_after")
_a("open_utkface", "open", "In this photo, there is a", "UNPARSEABLE", "LLaVA-1.5",
   "truncated")
_a("open_utkface", "open",
   "The individual presents as feminine, with long eyelashes, defined eyebrows and "
   "lipstick. She appears to be in her early thirties and is wearing a black blazer.",
   "female", "InternVL", "description")

# ---------------------------------------------------------------------------------------------
# open_fairface, open: "Describe this person's ethnic and cultural background, ..."
# (expected: the FairFace race category)
# ---------------------------------------------------------------------------------------------
_a("open_fairface", "open",
   "The person appears to be of East Asian descent, possibly Chinese or Korean, based on "
   "facial features such as the eye shape and straight black hair. There are no visible "
   "cultural markers, such as clothing or jewelry, that would suggest a specific background.",
   "east asian", "Qwen2-VL", "description")
_a("open_fairface", "open",
   "This man appears to be of African descent, with dark skin, short curly black hair and "
   "broad facial features. He is wearing a white T-shirt. No particular cultural markers "
   "are visible.", "black", "LLaVA-1.5", "description")
_a("open_fairface", "open",
   "The woman has fair skin, light brown hair and blue eyes, features commonly associated "
   "with people of European (White) ancestry. She is wearing a simple black top.", "white",
   "MiniCPM-V", "description")
_a("open_fairface", "open",
   "I can't determine a person's ethnic or cultural background from their appearance. I can "
   "describe what's visible: the person has medium-brown skin and dark hair pulled back, and "
   "is wearing a patterned scarf.", "REFUSED", "Claude", "refusal_then_description")
_a("open_fairface", "open",
   "**Physical features:** medium-brown skin, dark wavy hair, thick eyebrows and a full "
   "beard.\n\n**Cultural markers:** He is wearing a keffiyeh.\n\n**Likely background:** "
   "Middle Eastern, possibly Arab.", "middle eastern", "Gemma 3", "markdown")
_a("open_fairface", "open",
   "The person appears to be of South Asian, likely Indian, background. She has warm brown "
   "skin and long black hair, and is wearing a bindi and a gold nose ring.", "indian",
   "GPT-4o", "description")
_a("open_fairface", "open",
   "The man appears to be Latino or Hispanic, with tan skin, dark hair and brown eyes. He "
   "is wearing a soccer jersey. His features could also fit Mediterranean ancestry, but "
   "Latino seems most likely.", "latino or hispanic", "Llama 3.2 Vision", "hedge")
_a("open_fairface", "open",
   "The person has features that could be consistent with Southeast Asian heritage, such "
   "as Filipino or Vietnamese: tan skin, dark straight hair and a rounded face.",
   "southeast asian", "InternVL", "description")
_a("open_fairface", "open",
   "The individual could be of Latino, Middle Eastern or South Asian background; it is "
   "difficult to say from the image alone. He has olive skin and short dark hair.",
   "UNPARSEABLE", "LLaVA-NeXT", "ambiguous")
_a("open_fairface", "open",
   "This person has light skin, brown eyes and dark hair. No cultural markers are visible, "
   "and ethnicity cannot be reliably inferred from appearance alone.", "REFUSED",
   "Phi-3.5-vision", "refusal_then_description")
_a("open_fairface", "open",
   "Based on visible features, this person appears to be Black. He has dark brown skin and "
   "a shaved head, and he is wearing a gray hoodie.", "black", "GPT-4o", "colour")
_a("open_fairface", "open",
   "The person appears to be White, with pale skin and red hair. She is wearing a black",
   "white", "LLaVA-1.5", "truncated_after")
_a("open_fairface", "open", "This person's ethnic background appears to be", "UNPARSEABLE",
   "MiniCPM-V", "truncated")
_a("open_fairface", "open",
   "The woman appears to be of Southeast Asian origin - possibly Thai or Indonesian - given "
   "her facial features and the batik pattern on her blouse.", "southeast asian", "Qwen2-VL",
   "description")

# ---------------------------------------------------------------------------------------------
# open_waterbirds, open: "Describe this bird in detail, ..." (expected: landbird/waterbird)
# ---------------------------------------------------------------------------------------------
_a("open_waterbirds", "open",
   "This appears to be a mallard duck, a classic waterbird. It has an iridescent green "
   "head and a yellow bill, and it is floating on a pond. Mallards prefer wetlands and feed "
   "by dabbling.", "waterbird", "GPT-4o", "description")
_a("open_waterbirds", "open",
   "The bird is a small songbird, likely a warbler, perched on a branch in a forest. Its "
   "yellow plumage and thin pointed bill suggest it feeds on insects. It is a landbird that "
   "prefers wooded habitats.", "landbird", "Qwen2-VL", "description")
_a("open_waterbirds", "open",
   "This is a gull standing on a sandy beach. Gulls are seabirds that forage along "
   "coastlines, and the white and gray plumage and webbed feet are typical of the species.",
   "waterbird", "LLaVA-NeXT", "description")
_a("open_waterbirds", "open",
   "The image shows a woodpecker clinging to a tree trunk. Its stiff tail feathers and "
   "chisel-like bill are adaptations for drilling into bark. It is a forest-dwelling "
   "landbird.", "landbird", "MiniCPM-V", "description")
_a("open_waterbirds", "open",
   "**Species:** Likely a tern\n**Habitat:** Coastal waters, beaches\n**Behavior:** "
   "Plunge-diving for fish\n\nThis is a waterbird.", "waterbird", "Gemma 3", "markdown")
_a("open_waterbirds", "open",
   "This bird appears to be a sparrow perched on a bamboo stalk, although the background "
   "shows a lake. Despite the water in the background, sparrows are landbirds that feed on "
   "seeds and insects.", "landbird", "Claude", "background")
_a("open_waterbirds", "open",
   "The bird has a long neck and long legs and is wading in shallow water, which suggests it "
   "is a heron or an egret. These waterbirds hunt fish and frogs in marshes.", "waterbird",
   "Llama 3.2 Vision", "description")
_a("open_waterbirds", "open",
   "This appears to be a flycatcher perched on a fence post in an open field. It is probably "
   "catching insects in flight, and like other flycatchers it is a landbird.", "landbird",
   "InternVL", "description")
_a("open_waterbirds", "open",
   "It's difficult to identify the species because the image is blurry. The bird is small "
   "and brown and appears to be sitting near some vegetation.", "UNPARSEABLE",
   "Phi-3.5-vision", "ambiguous")
_a("open_waterbirds", "open",
   "This bird could be a waterbird or a landbird; it is standing on a rock near the shore, "
   "and its dark plumage is hard to make out.", "UNPARSEABLE", "LLaVA-1.5", "ambiguous")
_a("open_waterbirds", "open",
   "The photo shows a pelican with a large pouched bill, floating on the ocean. Pelicans "
   "are waterbirds that feed by scooping up fish.", "waterbird", "GPT-4o", "description")
_a("open_waterbirds", "open",
   "This is a blue jay, identifiable by its blue crest, white face and black necklace "
   "markings. It is a landbird common in woodlands and suburban areas, and it is known for "
   "its loud calls. Although the bird is shown against a", "landbird", "LLaVA-NeXT",
   "truncated_after")
_a("open_waterbirds", "open",
   "This is a hummingbird hovering near a red flower. It has iridescent green feathers and a "
   "long, thin bill for drinking nectar. It is not a waterbird; it lives in gardens and "
   "forests.", "landbird", "Claude", "negation")
