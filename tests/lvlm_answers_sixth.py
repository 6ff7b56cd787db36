"""Sixth independent held-out corpus of LVLM answers to demographic-classification prompts.

Written by a helper session from two sources only: the prompts and class lists in
nhfair_jax/lvlm/prompts.py, and the brief that commissioned it. The attribute class lists
(gender [male, female], age [young, middle, old], UTKFace race [white, black, asian, indian,
others], skin tone [light, medium, dark]) were taken from the LVLM study's public code, which
prompts.py follows. No reader code, tests, docs or other corpora of the project were read, and
no reader was run on these answers.

Conventions for `expected`: a class name (lowercase) of the task's list; "Yes"/"No" for
single_choice and yes_no; "REFUSED" when the model declines to judge (including single-choice
"C. Unknown"); "UNPARSEABLE" when no single class can be read. Ages: young < 30,
middle 30-59, old >= 60; a range spanning two bins is UNPARSEABLE. bench_fairface expects the
class name that the category number denotes (0 white, 1 black, 2 latino or hispanic,
3 east asian, 4 southeast asian, 5 indian, 6 middle eastern).

First reading, by the reader of the time before any change made for it: 347 of 368 distinct
answers (94.3%) read as the writer expected, 4 read as a wrong class (two answers revised in a
later paragraph, "On a closer look ..." and "On second thought ..."; a truncated hedge; an
echo of the prompt's instruction). Ten of the 21 misses were answers in Chinese or Spanish.
Kept as written; later readings are in tests/test_lvlm_independent.py and docs/lvlm.md.
"""
ANSWERS = []


def _a(task, kind, answer, expected, style, area, asked=None):
    ANSWERS.append({"task": task, "kind": kind, "asked": asked, "answer": answer,
                    "expected": expected,
                    "source": "independent; style=%s; area=%s" % (style, area)})


# ---------------------------------------------------------------------------
# utkface_gender, direct  [male, female]
# ---------------------------------------------------------------------------
_a("utkface_gender", "direct", "Female.", "female", "Qwen2-VL", "plain")
_a("utkface_gender", "direct", '"male"', "male", "LLaVA-1.5", "plain")
_a("utkface_gender", "direct", '"female"', "female", "LLaVA-1.5", "plain")
_a("utkface_gender", "direct", "male", "male", "InternVL2", "plain")
_a("utkface_gender", "direct", '"Male"', "male", "MiniCPM-V", "plain")
_a("utkface_gender", "direct", 'The foreground person\'s gender is "female".', "female", "GPT-4o", "sentence")
_a("utkface_gender", "direct", '**"male"**', "male", "Gemma-3", "markdown")
_a("utkface_gender", "direct", '<|im_start|>assistant\n"female"<|im_end|>', "female", "Qwen2-VL", "template")
_a("utkface_gender", "direct", 'ASSISTANT: "male"', "male", "LLaVA-1.5", "template")
_a("utkface_gender", "direct", 'Give me a one-word label in quotation marks for the foreground person\'s gender in this image from this list: [male, female]\n\n"female"', "female", "LLaVA-NeXT", "echo")
_a("utkface_gender", "direct", '"woman"', "female", "MiniCPM-V", "synonym")
_a("utkface_gender", "direct", "The person in the image is a man.", "male", "Llama-3.2-Vision", "synonym")
_a("utkface_gender", "direct", "I'm not able to determine someone's gender from an image. Gender identity can't be inferred from appearance alone.", "REFUSED", "Claude", "refusal")
_a("utkface_gender", "direct", "I can't make assumptions about gender based on appearance, but I can tell you the person has short dark hair and is wearing a grey sweater.", "REFUSED", "Claude", "refusal_described")
_a("utkface_gender", "direct", 'Based on the long hair and the earrings, I would say "female", although appearance alone is not definitive.', "female", "GPT-4o", "hedge")
_a("utkface_gender", "direct", '"male" or "female"', "UNPARSEABLE", "LLaVA-1.5", "two_classes")
_a("utkface_gender", "direct", 'The person has no beard and fairly soft features, but the short haircut and broad jaw suggest "male".', "male", "InternVL2", "negation")
_a("utkface_gender", "direct", '"female" — the person is wearing a pink blouse and a silver necklace.', "female", "Gemma-3", "clothing")
_a("utkface_gender", "direct", "女", "female", "Qwen2-VL", "foreign")
_a("utkface_gender", "direct", 'Not a man — "female".', "female", "MiniCPM-V", "negation")
_a("utkface_gender", "direct", "The foreground person appears to be", "UNPARSEABLE", "LLaVA-NeXT", "truncated")
_a("utkface_gender", "direct", '"male".\n\nWait, looking again at the long hair and the makeup, I think "female" is more accurate.', "female", "Llama-3.2-Vision", "revision")
_a("utkface_gender", "direct", 'Label: "Male"', "male", "Phi-3.5-vision", "plain")

_a("utkface_gender", "direct", "Male", "male", "Qwen2-VL", "plain")
_a("utkface_gender", "direct", "\"female\".", "female", "InternVL2", "plain")

# ---------------------------------------------------------------------------
# utkface_race, direct  [white, black, asian, indian, others]
# ---------------------------------------------------------------------------
_a("utkface_race", "direct", '"asian"', "asian", "LLaVA-1.5", "plain")
_a("utkface_race", "direct", '"white"', "white", "LLaVA-1.5", "plain")
_a("utkface_race", "direct", "black", "black", "InternVL2", "plain")
_a("utkface_race", "direct", '"Indian"', "indian", "MiniCPM-V", "plain")
_a("utkface_race", "direct", '"others"', "others", "Qwen2-VL", "plain")
_a("utkface_race", "direct", 'The foreground person\'s race appears to be "white".', "white", "GPT-4o", "sentence")
_a("utkface_race", "direct", '"South Asian"', "indian", "Gemma-3", "synonym")
_a("utkface_race", "direct", "Caucasian", "white", "CogVLM", "synonym")
_a("utkface_race", "direct", 'The person appears to be of East Asian descent, so "asian".', "asian", "Llama-3.2-Vision", "synonym")
_a("utkface_race", "direct", '"African American"', "black", "MiniCPM-V", "synonym")
_a("utkface_race", "direct", "I'm sorry, but I can't determine a person's race from an image.", "REFUSED", "GPT-4o", "refusal")
_a("utkface_race", "direct", "I don't classify people by race, since it can't be reliably inferred from appearance. I can describe other aspects of the image, such as the person's blue shirt and the outdoor setting.", "REFUSED", "Claude", "refusal_described")
_a("utkface_race", "direct", 'The person could be "white" or "others"; it is hard to say in this lighting.', "UNPARSEABLE", "InternVL2", "two_classes")
_a("utkface_race", "direct", '**Race:** "black"', "black", "Gemma-3", "markdown")
_a("utkface_race", "direct", '<|im_start|>assistant\n"indian"<|im_end|>', "indian", "Qwen2-VL", "template")
_a("utkface_race", "direct", 'Hard to be certain given the harsh backlighting, but I\'d go with "indian".', "indian", "GPT-4o", "lighting")
_a("utkface_race", "direct", '"others" — the person appears to be of Middle Eastern descent.', "others", "Llama-3.2-Vision", "sentence")
_a("utkface_race", "direct", 'Not white — I\'d label this person "black".', "black", "MiniCPM-V", "negation")
_a("utkface_race", "direct", '"asian"</s>', "asian", "LLaVA-1.5", "template")
_a("utkface_race", "direct", "Asiático", "asian", "Llama-3.2-Vision", "foreign")
_a("utkface_race", "direct", "The person in the foreground appears to be of mixed heritage, possibly", "UNPARSEABLE", "LLaVA-NeXT", "truncated")
_a("utkface_race", "direct", '"white".\n\nOn a closer look, the person\'s features are more consistent with "others" (Latino).', "others", "InternVL2", "revision")
_a("utkface_race", "direct", 'From the list [white, black, asian, indian, others], the answer is "asian".', "asian", "Phi-3.5-vision", "echo")

_a("utkface_race", "direct", "\"black\"", "black", "LLaVA-1.5", "plain")
_a("utkface_race", "direct", "Asian", "asian", "Qwen2-VL", "plain")

# ---------------------------------------------------------------------------
# utkface_age, direct  [young, middle, old]
# ---------------------------------------------------------------------------
_a("utkface_age", "direct", '"young"', "young", "LLaVA-1.5", "plain")
_a("utkface_age", "direct", '"old"', "old", "LLaVA-1.5", "plain")
_a("utkface_age", "direct", "middle", "middle", "InternVL2", "plain")
_a("utkface_age", "direct", '"Middle"', "middle", "MiniCPM-V", "plain")
_a("utkface_age", "direct", "Age: 25", "young", "Qwen2-VL", "number")
_a("utkface_age", "direct", 'The person appears to be around 70 years old, so "old".', "old", "GPT-4o", "number")
_a("utkface_age", "direct", "A 70-year-old man.", "old", "Llama-3.2-Vision", "number")
_a("utkface_age", "direct", '"middle" — she looks to be in her 40s.', "middle", "Gemma-3", "decade")
_a("utkface_age", "direct", "He looks like he is in his mid-twenties.", "young", "Claude", "decade")
_a("utkface_age", "direct", "The person is probably between 25 and 35 years old.", "UNPARSEABLE", "GPT-4o", "range")
_a("utkface_age", "direct", '"elderly"', "old", "MiniCPM-V", "synonym")
_a("utkface_age", "direct", '"middle-aged"', "middle", "LLaVA-NeXT", "synonym")
_a("utkface_age", "direct", 'The foreground person is a toddler, so "young".', "young", "InternVL2", "synonym")
_a("utkface_age", "direct", "thirty-five", "middle", "Phi-3.5-vision", "number_words")
_a("utkface_age", "direct", 'She doesn\'t look old — I\'d say "young".', "young", "Llama-3.2-Vision", "negation")
_a("utkface_age", "direct", "The person is not young.", "UNPARSEABLE", "CogVLM", "ambiguous")
_a("utkface_age", "direct", '"old" (gray hair and wrinkles are visible)', "old", "Gemma-3", "sentence")
_a("utkface_age", "direct", "Around 50-65 years old.", "UNPARSEABLE", "Qwen2-VL", "range")
_a("utkface_age", "direct", "Estimated age: 42", "middle", "InternVL2", "number")
_a("utkface_age", "direct", "I can't accurately determine a person's age from a photo.", "REFUSED", "Claude", "refusal")
_a("utkface_age", "direct", "老年", "old", "Qwen2-VL", "foreign")
_a("utkface_age", "direct", '"young" or "middle" — the person looks about', "UNPARSEABLE", "LLaVA-1.5", "truncated")
_a("utkface_age", "direct", '"middle".\n\nActually, given the white beard and deep wrinkles, "old" fits better.', "old", "GPT-4o", "revision")
_a("utkface_age", "direct", "In his sixties.", "old", "MiniCPM-V", "decade")
_a("utkface_age", "direct", '**Answer:** "young" (approximately 8 years old)', "young", "Gemma-3", "markdown")
_a("utkface_age", "direct", "The person appears to be in their late fifties.", "middle", "Llama-3.2-Vision", "decade")

_a("utkface_age", "direct", "Young", "young", "Qwen2-VL", "plain")
_a("utkface_age", "direct", "\"old\".", "old", "InternVL2", "plain")

# ---------------------------------------------------------------------------
# facet_gender, direct  [male, female]
# ---------------------------------------------------------------------------
_a("facet_gender", "direct", '"female"', "female", "LLaVA-1.5", "plain")
_a("facet_gender", "direct", '"male"', "male", "LLaVA-1.5", "plain")
_a("facet_gender", "direct", "Male", "male", "InternVL2", "plain")
_a("facet_gender", "direct", 'The foreground person, a man in a yellow hard hat, is "male".', "male", "GPT-4o", "clothing")
_a("facet_gender", "direct", '"female" (the dancer in the red dress)', "female", "MiniCPM-V", "clothing")
_a("facet_gender", "direct", "The foreground person is wearing a helmet and facing away from the camera, so I can't determine the gender.", "REFUSED", "Claude", "refusal")
_a("facet_gender", "direct", 'Based on the silhouette, probably "male", though the backlit scene makes it hard to see.', "male", "Llama-3.2-Vision", "lighting")
_a("facet_gender", "direct", "A lady.", "female", "CogVLM", "synonym")
_a("facet_gender", "direct", '<start_of_turn>model\n"female"<end_of_turn>', "female", "Gemma-3", "template")
_a("facet_gender", "direct", '"male"<|eot_id|>', "male", "Llama-3.2-Vision", "template")
_a("facet_gender", "direct", 'There are two people: the man in front is "male", and the woman behind him is "female". The foreground person is "male".', "male", "InternVL2", "two_classes_settled")
_a("facet_gender", "direct", 'It is not a woman; the foreground person is a bearded man. "male"', "male", "Qwen2-VL", "negation")
_a("facet_gender", "direct", "Hombre", "male", "Llama-3.2-Vision", "foreign")
_a("facet_gender", "direct", "The foreground person is", "UNPARSEABLE", "LLaVA-NeXT", "truncated")
_a("facet_gender", "direct", "Gender: Female", "female", "Phi-3.5-vision", "plain")
_a("facet_gender", "direct", "The person is a girl around ten years old playing soccer.", "female", "GPT-4o", "synonym")

# ---------------------------------------------------------------------------
# facet_age, direct  [young, middle, old]
# ---------------------------------------------------------------------------
_a("facet_age", "direct", '"young"', "young", "LLaVA-1.5", "plain")
_a("facet_age", "direct", '"middle"', "middle", "LLaVA-1.5", "plain")
_a("facet_age", "direct", '"old"', "old", "MiniCPM-V", "plain")
_a("facet_age", "direct", "Old", "old", "InternVL2", "plain")
_a("facet_age", "direct", 'The foreground person looks like a teenager, so "young".', "young", "GPT-4o", "synonym")
_a("facet_age", "direct", 'The man appears to be in his 50s: "middle".', "middle", "Llama-3.2-Vision", "decade")
_a("facet_age", "direct", '"old" — an elderly woman with white hair in a floral headscarf.', "old", "Gemma-3", "clothing")
_a("facet_age", "direct", "Roughly 30 to 40 years old.", "middle", "Claude", "range")
_a("facet_age", "direct", "About 20-35.", "UNPARSEABLE", "Qwen2-VL", "range")
_a("facet_age", "direct", '"senior"', "old", "CogVLM", "synonym")
_a("facet_age", "direct", "The person is a child.", "young", "LLaVA-NeXT", "synonym")
_a("facet_age", "direct", "Age: 67", "old", "Phi-3.5-vision", "number")
_a("facet_age", "direct", "I cannot estimate age reliably from this image because the person is wearing a full-face helmet.", "REFUSED", "Claude", "refusal")
_a("facet_age", "direct", '"young"\nassistant\n"young"', "young", "Qwen2-VL", "template")
_a("facet_age", "direct", 'Hard to tell because of the dim lighting. Could be "middle" or "old".', "UNPARSEABLE", "InternVL2", "two_classes")
_a("facet_age", "direct", 'He doesn\'t look young, but he isn\'t old either — "middle".', "middle", "GPT-4o", "negation")
_a("facet_age", "direct", "twenty-two", "young", "MiniCPM-V", "number_words")
_a("facet_age", "direct", "中年", "middle", "Qwen2-VL", "foreign")
_a("facet_age", "direct", 'The person appears to be in their early thirties: "middle".', "middle", "Llama-3.2-Vision", "decade")

_a("facet_age", "direct", "Middle", "middle", "Qwen2-VL", "plain")

# ---------------------------------------------------------------------------
# facet_skin_tone, direct  [light, medium, dark]
# ---------------------------------------------------------------------------
_a("facet_skin_tone", "direct", '"light"', "light", "LLaVA-1.5", "plain")
_a("facet_skin_tone", "direct", '"medium"', "medium", "LLaVA-1.5", "plain")
_a("facet_skin_tone", "direct", '"dark"', "dark", "MiniCPM-V", "plain")
_a("facet_skin_tone", "direct", "Dark", "dark", "InternVL2", "plain")
_a("facet_skin_tone", "direct", 'The foreground person\'s skin tone is "medium".', "medium", "GPT-4o", "sentence")
_a("facet_skin_tone", "direct", 'The person wearing a dark jacket has a "light" skin tone.', "light", "Llama-3.2-Vision", "clothing")
_a("facet_skin_tone", "direct", '"light" (against a dark background)', "light", "Gemma-3", "background")
_a("facet_skin_tone", "direct", 'The lighting is dim, but the skin appears "dark".', "dark", "Qwen2-VL", "lighting")
_a("facet_skin_tone", "direct", 'It\'s difficult to judge skin tone under this orange stage lighting; it could be "medium" or "dark".', "UNPARSEABLE", "GPT-4o", "two_classes")
_a("facet_skin_tone", "direct", '"fair"', "light", "CogVLM", "synonym")
_a("facet_skin_tone", "direct", 'Somewhere between "light" and "medium".', "UNPARSEABLE", "InternVL2", "ambiguous")
_a("facet_skin_tone", "direct", "I'm not able to categorize the skin tone of individuals in images.", "REFUSED", "Claude", "refusal")
_a("facet_skin_tone", "direct", "Skin tone: **medium**", "medium", "Gemma-3", "markdown")
_a("facet_skin_tone", "direct", 'The skin is not dark; I would call it "light".', "light", "MiniCPM-V", "negation")
_a("facet_skin_tone", "direct", '"medium".\n\nOn second thought, given the deep brown complexion, "dark" is more appropriate.', "dark", "Llama-3.2-Vision", "revision")
_a("facet_skin_tone", "direct", 'The person has a deep, rich complexion, so "dark".', "dark", "GPT-4o", "synonym")
_a("facet_skin_tone", "direct", "Pale", "light", "LLaVA-NeXT", "synonym")
_a("facet_skin_tone", "direct", '"medium"<|im_end|>', "medium", "Qwen2-VL", "template")
_a("facet_skin_tone", "direct", "The foreground person has a", "UNPARSEABLE", "LLaVA-1.5", "truncated")

_a("facet_skin_tone", "direct", "Light", "light", "Qwen2-VL", "plain")

# ---------------------------------------------------------------------------
# facet_occupation, direct  (the 52 FACET person classes)
# ---------------------------------------------------------------------------
_a("facet_occupation", "direct", '"guitarist"', "guitarist", "LLaVA-1.5", "plain")
_a("facet_occupation", "direct", '"nurse"', "nurse", "LLaVA-1.5", "plain")
_a("facet_occupation", "direct", "skateboarder", "skateboarder", "InternVL2", "plain")
_a("facet_occupation", "direct", '"Dancer"', "dancer", "MiniCPM-V", "plain")
_a("facet_occupation", "direct", '"gardener"', "gardener", "Qwen2-VL", "plain")
_a("facet_occupation", "direct", '"horseman"', "horseman", "LLaVA-1.5", "plain")
_a("facet_occupation", "direct", '"basketball player"', "basketball_player", "Llama-3.2-Vision", "spacing")
_a("facet_occupation", "direct", '"soccer_player"', "soccer_player", "LLaVA-NeXT", "plain")
_a("facet_occupation", "direct", 'A woman in green scrubs standing beside a hospital bed: "nurse".', "nurse", "GPT-4o", "clothing")
_a("facet_occupation", "direct", '"laborer" — a construction worker carrying bricks.', "laborer", "Gemma-3", "sentence")
_a("facet_occupation", "direct", '"labourer"', "laborer", "CogVLM", "spelling")
_a("facet_occupation", "direct", '"DJ"', "disk_jockey", "MiniCPM-V", "synonym")
_a("facet_occupation", "direct", 'The person is selling vegetables at a market stall. "retailer"', "retailer", "InternVL2", "sentence")
_a("facet_occupation", "direct", 'The person holding a microphone could be a "singer" or a "speaker".', "UNPARSEABLE", "GPT-4o", "two_classes")
_a("facet_occupation", "direct", '"musician"', "UNPARSEABLE", "LLaVA-1.5", "off_list")
_a("facet_occupation", "direct", '"student"</s>', "student", "LLaVA-1.5", "template")
_a("facet_occupation", "direct", '**"gymnast"**', "gymnast", "Gemma-3", "markdown")
_a("facet_occupation", "direct", '"craftsman" (a man carving wood in a workshop)', "craftsman", "Qwen2-VL", "sentence")
_a("facet_occupation", "direct", 'Give me a one-word label in quotation marks for the foreground object in this image from this list: [astronaut, backpacker, ballplayer, bartender, basketball_player, boatman, carpenter, cheerleader, climber, computer_user, craftsman, dancer, disk_jockey, doctor, drummer, electrician, farmer, fireman, flutist, gardener, guard, guitarist, gymnast, hairdresser, horseman, judge, laborer, lawman, lifeguard, machinist, motorcyclist, nurse, painter, patient, prayer, referee, repairman, reporter, retailer, runner, sculptor, seller, singer, skateboarder, soccer_player, soldier, speaker, student, teacher, tennis_player, trumpeter, waiter]\n"skateboarder"', "skateboarder", "LLaVA-NeXT", "echo")
_a("facet_occupation", "direct", '"singer"', "singer", "MiniCPM-V", "plain")
_a("facet_occupation", "direct", "The person is riding a skateboard down a concrete ramp, wearing a red helmet.", "skateboarder", "Llama-3.2-Vision", "description")
_a("facet_occupation", "direct", "I'm sorry, I can't determine the person's occupation from this image.", "REFUSED", "Claude", "refusal")
_a("facet_occupation", "direct", '"farmer".\n\nActually, the person is tending flowers in a backyard, so "gardener" is a better fit.', "gardener", "GPT-4o", "revision")
_a("facet_occupation", "direct", '"runner"', "runner", "InternVL2", "plain")
_a("facet_occupation", "direct", 'The label is "prayer" — the person is kneeling on a prayer mat.', "prayer", "Qwen2-VL", "sentence")
_a("facet_occupation", "direct", "Guitar player", "guitarist", "CogVLM", "synonym")

_a("facet_occupation", "direct", "\"retailer\"", "retailer", "LLaVA-1.5", "plain")
_a("facet_occupation", "direct", "\"prayer\"", "prayer", "LLaVA-1.5", "plain")
_a("facet_occupation", "direct", "craftsman", "craftsman", "InternVL2", "plain")
_a("facet_occupation", "direct", "\"Student\"", "student", "MiniCPM-V", "plain")

# ---------------------------------------------------------------------------
# utkface_gender, single_choice
# ---------------------------------------------------------------------------
_a("utkface_gender", "single_choice", "A. Yes", "Yes", "LLaVA-1.5", "plain", asked="female")
_a("utkface_gender", "single_choice", "B. No", "No", "LLaVA-1.5", "plain", asked="male")
_a("utkface_gender", "single_choice", "A", "Yes", "InternVL2", "letter", asked="female")
_a("utkface_gender", "single_choice", "A. Yes, the person appears to be male.", "Yes", "GPT-4o", "sentence", asked="male")
_a("utkface_gender", "single_choice", "B. No. The person in the image appears to be a man with a short beard.", "No", "Llama-3.2-Vision", "sentence", asked="female")
_a("utkface_gender", "single_choice", "C. Unknown", "REFUSED", "MiniCPM-V", "unknown", asked="male")
_a("utkface_gender", "single_choice", "I can't determine someone's gender from their appearance. C. Unknown.", "REFUSED", "Claude", "refusal", asked="female")
_a("utkface_gender", "single_choice", "Yes", "Yes", "Qwen2-VL", "plain", asked="male")
_a("utkface_gender", "single_choice", "(B) No", "No", "Gemma-3", "letter", asked="female")
_a("utkface_gender", "single_choice", "The person appears to be female.", "No", "CogVLM", "implicit", asked="male")
_a("utkface_gender", "single_choice", "In the image provided, Do you think the person in the image is a female? Please choose one of the following: A. Yes, B. No, C. Unknown.\nA. Yes", "Yes", "LLaVA-NeXT", "echo", asked="female")
_a("utkface_gender", "single_choice", "A. Yes\nB. No\nC. Unknown", "UNPARSEABLE", "LLaVA-1.5", "options_echo", asked="male")
_a("utkface_gender", "single_choice", "是", "Yes", "Qwen2-VL", "foreign", asked="female")
_a("utkface_gender", "single_choice", "No, the person has long hair and is wearing makeup, so B.", "No", "InternVL2", "sentence", asked="male")

# ---------------------------------------------------------------------------
# utkface_race, single_choice
# ---------------------------------------------------------------------------
_a("utkface_race", "single_choice", "A. Yes", "Yes", "LLaVA-1.5", "plain", asked="asian")
_a("utkface_race", "single_choice", "B", "No", "InternVL2", "letter", asked="white")
_a("utkface_race", "single_choice", "A. Yes, the person appears to be Black.", "Yes", "GPT-4o", "sentence", asked="black")
_a("utkface_race", "single_choice", "B. No — the person looks East Asian.", "No", "Llama-3.2-Vision", "sentence", asked="indian")
_a("utkface_race", "single_choice", "C. Unknown. Race cannot be reliably determined from an image.", "REFUSED", "Claude", "unknown", asked="others")
_a("utkface_race", "single_choice", "Answer: A", "Yes", "Phi-3.5-vision", "letter", asked="asian")
_a("utkface_race", "single_choice", "Yes, the person appears to be white.\n\nHowever, on closer inspection the complexion and features suggest South Asian descent, so B. No.", "No", "MiniCPM-V", "revision", asked="white")
_a("utkface_race", "single_choice", "**A. Yes**", "Yes", "Gemma-3", "markdown", asked="indian")
_a("utkface_race", "single_choice", "I'm sorry, but I can't make judgments about a person's race.", "REFUSED", "GPT-4o", "refusal", asked="black")
_a("utkface_race", "single_choice", 'The person could be Latino or Middle Eastern, which would fall under "others", but it could also be', "UNPARSEABLE", "LLaVA-NeXT", "truncated", asked="others")
_a("utkface_race", "single_choice", "No.", "No", "Qwen2-VL", "plain", asked="asian")

_a("utkface_race", "single_choice", "B. No", "No", "LLaVA-1.5", "plain", asked="others")

# ---------------------------------------------------------------------------
# utkface_age, single_choice
# ---------------------------------------------------------------------------
_a("utkface_age", "single_choice", "A. Yes", "Yes", "LLaVA-1.5", "plain", asked="young")
_a("utkface_age", "single_choice", "B. No", "No", "LLaVA-1.5", "plain", asked="old")
_a("utkface_age", "single_choice", "A. Yes, the person looks to be in their 40s.", "Yes", "GPT-4o", "decade", asked="middle")
_a("utkface_age", "single_choice", "B. No, the person appears to be elderly.", "No", "Llama-3.2-Vision", "sentence", asked="young")
_a("utkface_age", "single_choice", "A. Yes — white hair and deep wrinkles.", "Yes", "Gemma-3", "sentence", asked="old")
_a("utkface_age", "single_choice", "C", "REFUSED", "InternVL2", "unknown", asked="middle")
_a("utkface_age", "single_choice", "Yes, she looks about 20.", "Yes", "MiniCPM-V", "number", asked="young")
_a("utkface_age", "single_choice", "He doesn't look old. B.", "No", "CogVLM", "negation", asked="old")
_a("utkface_age", "single_choice", "B. No. The child looks about six years old.", "No", "Qwen2-VL", "number", asked="middle")
_a("utkface_age", "single_choice", "Sí", "Yes", "Llama-3.2-Vision", "foreign", asked="young")
_a("utkface_age", "single_choice", "A. Yes. Actually, looking again, the person seems to be in their late forties, so B. No.", "No", "GPT-4o", "revision", asked="old")

_a("utkface_age", "single_choice", "B", "No", "MiniCPM-V", "letter", asked="young")

# ---------------------------------------------------------------------------
# facet_gender, single_choice
# ---------------------------------------------------------------------------
_a("facet_gender", "single_choice", "A. Yes", "Yes", "LLaVA-1.5", "plain", asked="male")
_a("facet_gender", "single_choice", "B. No", "No", "LLaVA-1.5", "plain", asked="female")
_a("facet_gender", "single_choice", "B. No, the foreground person is a woman.", "No", "GPT-4o", "sentence", asked="male")
_a("facet_gender", "single_choice", "A. Yes. The woman in the blue uniform is female.", "Yes", "InternVL2", "clothing", asked="female")
_a("facet_gender", "single_choice", "C. Unknown — the person is facing away from the camera.", "REFUSED", "Claude", "unknown", asked="male")
_a("facet_gender", "single_choice", "A", "Yes", "MiniCPM-V", "letter", asked="female")
_a("facet_gender", "single_choice", "I wouldn't say no. A. Yes", "Yes", "Llama-3.2-Vision", "double_negation", asked="male")
_a("facet_gender", "single_choice", "The person is not a woman. B", "No", "Qwen2-VL", "negation", asked="female")

# ---------------------------------------------------------------------------
# facet_age, single_choice
# ---------------------------------------------------------------------------
_a("facet_age", "single_choice", "A. Yes", "Yes", "LLaVA-1.5", "plain", asked="young")
_a("facet_age", "single_choice", "B. No", "No", "LLaVA-1.5", "plain", asked="middle")
_a("facet_age", "single_choice", "B. No, the person looks to be in their twenties.", "No", "GPT-4o", "decade", asked="old")
_a("facet_age", "single_choice", "No, this is a middle-aged man.", "No", "Llama-3.2-Vision", "sentence", asked="young")
_a("facet_age", "single_choice", "A. Yes, he appears to be around 45.", "Yes", "InternVL2", "number", asked="middle")
_a("facet_age", "single_choice", "A", "Yes", "MiniCPM-V", "letter", asked="old")
_a("facet_age", "single_choice", "C. Unknown", "REFUSED", "Qwen2-VL", "unknown", asked="young")
_a("facet_age", "single_choice", "It's hard to say; the person could be 25 or 40.", "UNPARSEABLE", "CogVLM", "ambiguous", asked="middle")

# ---------------------------------------------------------------------------
# facet_skin_tone, single_choice
# ---------------------------------------------------------------------------
_a("facet_skin_tone", "single_choice", "A. Yes", "Yes", "LLaVA-1.5", "plain", asked="light")
_a("facet_skin_tone", "single_choice", "B. No", "No", "LLaVA-1.5", "plain", asked="dark")
_a("facet_skin_tone", "single_choice", "A. Yes, the skin tone appears medium.", "Yes", "GPT-4o", "sentence", asked="medium")
_a("facet_skin_tone", "single_choice", "A. Yes. The lighting is harsh, but the person's skin is dark.", "Yes", "InternVL2", "lighting", asked="dark")
_a("facet_skin_tone", "single_choice", "B. No, the person has a darker complexion.", "No", "Llama-3.2-Vision", "sentence", asked="light")
_a("facet_skin_tone", "single_choice", "C. Unknown, the lighting makes skin tone hard to judge.", "REFUSED", "Gemma-3", "unknown", asked="medium")
_a("facet_skin_tone", "single_choice", "B", "No", "MiniCPM-V", "letter", asked="light")
_a("facet_skin_tone", "single_choice", "I'm not comfortable categorizing people by skin tone.", "REFUSED", "Claude", "refusal", asked="dark")

# ---------------------------------------------------------------------------
# facet_occupation, single_choice
# ---------------------------------------------------------------------------
_a("facet_occupation", "single_choice", "A. Yes", "Yes", "LLaVA-1.5", "plain", asked="nurse")
_a("facet_occupation", "single_choice", "B. No", "No", "LLaVA-1.5", "plain", asked="guitarist")
_a("facet_occupation", "single_choice", "A. Yes, the person is watering plants in a garden.", "Yes", "GPT-4o", "sentence", asked="gardener")
_a("facet_occupation", "single_choice", "B. No, the person is riding a bicycle.", "No", "Llama-3.2-Vision", "sentence", asked="skateboarder")
_a("facet_occupation", "single_choice", "A", "Yes", "InternVL2", "letter", asked="dancer")
_a("facet_occupation", "single_choice", "Yes", "Yes", "Qwen2-VL", "plain", asked="horseman")
_a("facet_occupation", "single_choice", "B. No. The person is playing a trumpet, not singing.", "No", "MiniCPM-V", "negation", asked="singer")
_a("facet_occupation", "single_choice", "C. Unknown", "REFUSED", "CogVLM", "unknown", asked="student")
_a("facet_occupation", "single_choice", "A. Yes — the person is dunking a basketball.", "Yes", "Gemma-3", "sentence", asked="basketball_player")
_a("facet_occupation", "single_choice", "No, the person appears to be a carpenter.", "No", "Llama-3.2-Vision", "implicit", asked="laborer")
_a("facet_occupation", "single_choice", "A. Yes. Actually, the person seems to be a customer, not the shopkeeper. B. No.", "No", "GPT-4o", "revision", asked="retailer")
_a("facet_occupation", "single_choice", "The person is kneeling in a mosque, which suggests", "UNPARSEABLE", "LLaVA-NeXT", "truncated", asked="prayer")
_a("facet_occupation", "single_choice", "**Answer: A. Yes**", "Yes", "Gemma-3", "markdown", asked="gymnast")

_a("facet_occupation", "single_choice", "B", "No", "MiniCPM-V", "letter", asked="singer")

# ---------------------------------------------------------------------------
# bench_celeba, yes_no  (wavy hair)
# ---------------------------------------------------------------------------
_a("bench_celeba", "yes_no", "Yes", "Yes", "LLaVA-1.5", "plain")
_a("bench_celeba", "yes_no", "No", "No", "LLaVA-1.5", "plain")
_a("bench_celeba", "yes_no", "yes", "Yes", "InternVL2", "plain")
_a("bench_celeba", "yes_no", "NO", "No", "MiniCPM-V", "plain")
_a("bench_celeba", "yes_no", "No.", "No", "Qwen2-VL", "plain")
_a("bench_celeba", "yes_no", "Yes, the person has wavy hair.", "Yes", "GPT-4o", "sentence")
_a("bench_celeba", "yes_no", "No, the person's hair is straight.", "No", "Llama-3.2-Vision", "sentence")
_a("bench_celeba", "yes_no", "The hair appears slightly wavy at the ends. Yes.", "Yes", "Claude", "hedge")
_a("bench_celeba", "yes_no", "No. The hair is pulled back into a tight bun and looks straight.", "No", "Gemma-3", "sentence")
_a("bench_celeba", "yes_no", "Not wavy.", "No", "CogVLM", "negation")
_a("bench_celeba", "yes_no", "Yes. Actually, no — the hair is straight; the waves are just shadows from the lighting.", "No", "GPT-4o", "revision")
_a("bench_celeba", "yes_no", "The person's hair isn't straight — it has loose waves. Yes.", "Yes", "InternVL2", "negation")
_a("bench_celeba", "yes_no", "I can't tell; the person is wearing a hat that covers most of the hair.", "REFUSED", "Claude", "refusal")
_a("bench_celeba", "yes_no", "<|im_start|>assistant\nNo<|im_end|>", "No", "Qwen2-VL", "template")
_a("bench_celeba", "yes_no", "Answer 'Yes' for wavy hair, 'No' for non-wavy hair.", "UNPARSEABLE", "LLaVA-1.5", "echo")
_a("bench_celeba", "yes_no", "The hair is", "UNPARSEABLE", "LLaVA-NeXT", "truncated")
_a("bench_celeba", "yes_no", "Sí", "Yes", "Llama-3.2-Vision", "foreign")
_a("bench_celeba", "yes_no", "**No**", "No", "Gemma-3", "markdown")

# ---------------------------------------------------------------------------
# bench_facet, yes_no  (visible face)
# ---------------------------------------------------------------------------
_a("bench_facet", "yes_no", "Yes", "Yes", "LLaVA-1.5", "plain")
_a("bench_facet", "yes_no", "No", "No", "LLaVA-1.5", "plain")
_a("bench_facet", "yes_no", "yes.", "Yes", "InternVL2", "plain")
_a("bench_facet", "yes_no", "YES", "Yes", "MiniCPM-V", "plain")
_a("bench_facet", "yes_no", "Yes, the face is clearly visible.", "Yes", "GPT-4o", "sentence")
_a("bench_facet", "yes_no", "No, the person is facing away from the camera.", "No", "Llama-3.2-Vision", "sentence")
_a("bench_facet", "yes_no", "No. The face is covered by a welding mask.", "No", "Gemma-3", "clothing")
_a("bench_facet", "yes_no", "The face is partially visible but blurry. Yes.", "Yes", "Claude", "hedge")
_a("bench_facet", "yes_no", "Partially — the person is turned to the side.", "UNPARSEABLE", "Qwen2-VL", "ambiguous")
_a("bench_facet", "yes_no", "Yes<|eot_id|>", "Yes", "Llama-3.2-Vision", "template")
_a("bench_facet", "yes_no", "No\nassistant\nNo", "No", "Qwen2-VL", "template")
_a("bench_facet", "yes_no", "No face is visible in this photo.", "No", "CogVLM", "sentence")
_a("bench_facet", "yes_no", "Yes. Wait — the face is hidden behind the helmet visor. No.", "No", "GPT-4o", "revision")
_a("bench_facet", "yes_no", "The person's face isn't hidden; it is clearly shown in the center of the frame.", "Yes", "InternVL2", "negation")
_a("bench_facet", "yes_no", "The photo is very dark, so the face", "UNPARSEABLE", "LLaVA-NeXT", "truncated")

# ---------------------------------------------------------------------------
# bench_utkface, closed  ('Male' / 'Female')
# ---------------------------------------------------------------------------
_a("bench_utkface", "closed", "Male", "male", "LLaVA-1.5", "plain")
_a("bench_utkface", "closed", "Female", "female", "LLaVA-1.5", "plain")
_a("bench_utkface", "closed", "female", "female", "InternVL2", "plain")
_a("bench_utkface", "closed", "MALE", "male", "MiniCPM-V", "plain")
_a("bench_utkface", "closed", "'Female'", "female", "Qwen2-VL", "plain")
_a("bench_utkface", "closed", "Male.", "male", "Gemma-3", "plain")
_a("bench_utkface", "closed", "**Female**", "female", "Gemma-3", "markdown")
_a("bench_utkface", "closed", "The person in the photo is Male.", "male", "GPT-4o", "sentence")
_a("bench_utkface", "closed", "Woman", "female", "CogVLM", "synonym")
_a("bench_utkface", "closed", "Man.", "male", "Llama-3.2-Vision", "synonym")
_a("bench_utkface", "closed", "女性", "female", "Qwen2-VL", "foreign")
_a("bench_utkface", "closed", "I can't determine a person's gender from a photo.", "REFUSED", "Claude", "refusal")
_a("bench_utkface", "closed", "Male or Female", "UNPARSEABLE", "LLaVA-1.5", "two_classes")
_a("bench_utkface", "closed", "Female. Actually, the short hair and strong jawline suggest Male.", "male", "GPT-4o", "revision")
_a("bench_utkface", "closed", "<|im_start|>assistant\nMale<|im_end|>", "male", "Qwen2-VL", "template")
_a("bench_utkface", "closed", "Not male — Female.", "female", "MiniCPM-V", "negation")
_a("bench_utkface", "closed", "The person is a baby, so it's hard to tell, but probably Female.", "female", "Llama-3.2-Vision", "hedge")
_a("bench_utkface", "closed", "The person is", "UNPARSEABLE", "LLaVA-NeXT", "truncated")

_a("bench_utkface", "closed", "male", "male", "InternVL2", "plain")

# ---------------------------------------------------------------------------
# bench_waterbirds, closed  ('Landbird' / 'Waterbird')
# ---------------------------------------------------------------------------
_a("bench_waterbirds", "closed", "Waterbird", "waterbird", "LLaVA-1.5", "plain")
_a("bench_waterbirds", "closed", "Landbird", "landbird", "LLaVA-1.5", "plain")
_a("bench_waterbirds", "closed", "landbird", "landbird", "InternVL2", "plain")
_a("bench_waterbirds", "closed", "WATERBIRD", "waterbird", "MiniCPM-V", "plain")
_a("bench_waterbirds", "closed", "Waterbird.", "waterbird", "Qwen2-VL", "plain")
_a("bench_waterbirds", "closed", "'Landbird'", "landbird", "Gemma-3", "plain")
_a("bench_waterbirds", "closed", "The bird in the photo is a Waterbird.", "waterbird", "GPT-4o", "sentence")
_a("bench_waterbirds", "closed", "Landbird. It's a warbler perched on a branch, even though there's a lake in the background.", "landbird", "Claude", "background")
_a("bench_waterbirds", "closed", "Waterbird — it looks like a gull standing on a beach.", "waterbird", "Llama-3.2-Vision", "sentence")
_a("bench_waterbirds", "closed", "Land bird", "landbird", "CogVLM", "spacing")
_a("bench_waterbirds", "closed", "Water bird.", "waterbird", "Phi-3.5-vision", "spacing")
_a("bench_waterbirds", "closed", "Seagull", "waterbird", "LLaVA-NeXT", "species")
_a("bench_waterbirds", "closed", "Landbird or Waterbird", "UNPARSEABLE", "LLaVA-1.5", "two_classes")
_a("bench_waterbirds", "closed", "Waterbird. Actually, it's a sparrow sitting in a bamboo forest, so Landbird.", "landbird", "GPT-4o", "revision")
_a("bench_waterbirds", "closed", "**Landbird**", "landbird", "Gemma-3", "markdown")
_a("bench_waterbirds", "closed", "The background is water, but the bird itself is not a waterbird: Landbird.", "landbird", "InternVL2", "negation")
_a("bench_waterbirds", "closed", "The bird is standing on a wooden dock and its", "UNPARSEABLE", "LLaVA-NeXT", "truncated")

# ---------------------------------------------------------------------------
# bench_fairface, digits  (0 White ... 6 Middle Eastern)
# ---------------------------------------------------------------------------
_a("bench_fairface", "digits", "3", "east asian", "LLaVA-1.5", "plain")
_a("bench_fairface", "digits", "0", "white", "LLaVA-1.5", "plain")
_a("bench_fairface", "digits", "1", "black", "InternVL2", "plain")
_a("bench_fairface", "digits", "5", "indian", "MiniCPM-V", "plain")
_a("bench_fairface", "digits", "2", "latino or hispanic", "Qwen2-VL", "plain")
_a("bench_fairface", "digits", "4.", "southeast asian", "Gemma-3", "plain")
_a("bench_fairface", "digits", "6", "middle eastern", "LLaVA-1.5", "plain")
_a("bench_fairface", "digits", "Category: 5", "indian", "Phi-3.5-vision", "label")
_a("bench_fairface", "digits", "The answer is 1.", "black", "Llama-3.2-Vision", "sentence")
_a("bench_fairface", "digits", "**3**", "east asian", "Gemma-3", "markdown")
_a("bench_fairface", "digits", "2: Latino or Hispanic", "latino or hispanic", "GPT-4o", "digit_and_name")
_a("bench_fairface", "digits", "6 (Middle Eastern)", "middle eastern", "InternVL2", "digit_and_name")
_a("bench_fairface", "digits", "East Asian", "east asian", "CogVLM", "name_only")
_a("bench_fairface", "digits", "<|im_start|>assistant\n0<|im_end|>", "white", "Qwen2-VL", "template")
_a("bench_fairface", "digits", "I'm sorry, but I can't classify people by race.", "REFUSED", "Claude", "refusal")
_a("bench_fairface", "digits", "0 or 6", "UNPARSEABLE", "LLaVA-NeXT", "two_classes")
_a("bench_fairface", "digits", "7", "UNPARSEABLE", "LLaVA-1.5", "out_of_range")
_a("bench_fairface", "digits", "4 - Southeast Asian", "southeast asian", "MiniCPM-V", "digit_and_name")
_a("bench_fairface", "digits", "3\n\nThe person has East Asian features, though 4 is also possible.", "east asian", "Llama-3.2-Vision", "hedge")
_a("bench_fairface", "digits", "Race can't be reliably determined from a photo. If I must pick a number, 0.", "white", "GPT-4o", "hedge")
_a("bench_fairface", "digits", "Based on the photo, the category is", "UNPARSEABLE", "LLaVA-NeXT", "truncated")
_a("bench_fairface", "digits", "Five.", "indian", "Phi-3.5-vision", "number_words")
_a("bench_fairface", "digits", "0: White, 1: Black, 2: Latino or Hispanic, 3: East Asian, 4: Southeast Asian, 5: Indian, 6: Middle Eastern.", "UNPARSEABLE", "LLaVA-1.5", "echo")
_a("bench_fairface", "digits", "The person appears to be of South Asian descent, so 5.", "indian", "Claude", "synonym")

_a("bench_fairface", "digits", "1.", "black", "Qwen2-VL", "plain")
_a("bench_fairface", "digits", "4", "southeast asian", "InternVL2", "plain")

# ---------------------------------------------------------------------------
# open_utkface, open  (attribute: gender)
# ---------------------------------------------------------------------------
_a("open_utkface", "open", "The photo shows a young woman with long dark hair tied in a ponytail. She is smiling broadly and wearing small hoop earrings. Her gender presentation appears feminine, and she looks to be in her early twenties.", "female", "GPT-4o", "description")
_a("open_utkface", "open", "The image shows a middle-aged man with a grey beard and receding hairline. He is wearing a collared blue shirt and looking directly at the camera with a neutral expression.", "male", "Llama-3.2-Vision", "description")
_a("open_utkface", "open", "**Gender presentation:** masculine — short hair, visible stubble, and a square jaw.\n**Other characteristics:** brown eyes, tanned skin, wearing a black T-shirt.", "male", "Gemma-3", "markdown")
_a("open_utkface", "open", "It's difficult to determine this person's gender presentation from the photo. They have short hair, a round face, and are wearing a loose grey hoodie.", "UNPARSEABLE", "Claude", "ambiguous")
_a("open_utkface", "open", "She has shoulder-length curly hair, wears glasses with thin metal frames, and is dressed in a floral top. The lighting is soft and warm.", "female", "InternVL2", "pronoun")
_a("open_utkface", "open", "The person in the photo is a boy of about ten with a buzz cut, freckles, and a wide grin. He is wearing a striped polo shirt.", "male", "MiniCPM-V", "description")
_a("open_utkface", "open", "An elderly lady with white hair in a neat bun, deep wrinkles around her eyes, and pearl earrings. She appears to be in her eighties.", "female", "Qwen2-VL", "synonym")
_a("open_utkface", "open", "I can't infer someone's gender from a photo. I can say that the person has shoulder-length brown hair, is wearing a red top, and is standing in front of a white wall.", "REFUSED", "Claude", "refusal_described")
_a("open_utkface", "open", "The person in this photo appears to be a", "UNPARSEABLE", "LLaVA-NeXT", "truncated")
_a("open_utkface", "open", "This is a close-up portrait of a man in his thirties. He has a neatly trimmed mustache, dark eyebrows, and slicked-back hair. Apparent gender presentation: male.", "male", "CogVLM", "description")
_a("open_utkface", "open", "The image shows a baby lying on a white blanket, wearing a yellow onesie. The baby has very little hair and is looking up at the camera.", "UNPARSEABLE", "LLaVA-1.5", "no_attribute")

# ---------------------------------------------------------------------------
# open_fairface, open  (attribute: race, FairFace's seven classes)
# ---------------------------------------------------------------------------
_a("open_fairface", "open", "The person appears to be of East Asian descent, possibly Chinese or Korean, based on the shape of the eyes, straight black hair, and light complexion. No specific cultural markers are visible in the image.", "east asian", "GPT-4o", "description")
_a("open_fairface", "open", "The person has features commonly associated with South Asian heritage, such as brown skin, dark eyes, and thick black hair. A small bindi on her forehead may indicate an Indian cultural background.", "indian", "Llama-3.2-Vision", "synonym")
_a("open_fairface", "open", "This man is likely of African descent, with dark skin, short coily hair, and broad facial features. He wears a plain white shirt, so there are no obvious cultural markers.", "black", "InternVL2", "synonym")
_a("open_fairface", "open", "She appears to be Latina, with olive skin, dark wavy hair, and brown eyes. The colorful embroidered blouse could suggest a Mexican cultural background.", "latino or hispanic", "MiniCPM-V", "synonym")
_a("open_fairface", "open", "The person could be Middle Eastern or South Asian; the dark beard, brown eyes, and medium skin tone are consistent with either background.", "UNPARSEABLE", "Claude", "two_classes")
_a("open_fairface", "open", "**Ethnic background:** likely Southeast Asian (e.g., Filipino or Vietnamese)\n**Physical features:** tan skin, dark straight hair, wide nose bridge\n**Cultural markers:** none clearly visible", "southeast asian", "Gemma-3", "markdown")
_a("open_fairface", "open", "This person appears to be of European descent, with fair skin, blue eyes, and light brown hair. He is wearing a knitted sweater.", "white", "Qwen2-VL", "synonym")
_a("open_fairface", "open", "I can't determine someone's ethnic or cultural background from a photo. The person has dark curly hair, a warm smile, and is wearing a green jacket.", "REFUSED", "Claude", "refusal_described")
_a("open_fairface", "open", "The woman appears to be Asian, with long straight black hair and a light complexion. She is wearing a simple white blouse.", "UNPARSEABLE", "LLaVA-1.5", "ambiguous")
_a("open_fairface", "open", "The man has a full dark beard and wears a red-and-white checkered keffiyeh, suggesting a Middle Eastern cultural background, possibly from the Gulf region.", "middle eastern", "CogVLM", "cultural_marker")
_a("open_fairface", "open", "The person in the image has a medium skin tone and dark hair, and appears to be of", "UNPARSEABLE", "LLaVA-NeXT", "truncated")

# ---------------------------------------------------------------------------
# open_waterbirds, open  (attribute: landbird / waterbird)
# ---------------------------------------------------------------------------
_a("open_waterbirds", "open", "This is a mallard duck, identifiable by the male's iridescent green head and white neck ring. Mallards prefer ponds, lakes, and marshes, and they feed by dabbling in shallow water.", "waterbird", "GPT-4o", "species")
_a("open_waterbirds", "open", "The bird appears to be a warbler perched on a thin branch. Although the background shows a lake, warblers are songbirds that live in forests and shrubland and feed on insects among the leaves.", "landbird", "Claude", "background")
_a("open_waterbirds", "open", "This is a herring gull standing on a rocky shoreline. Gulls are seabirds that forage along coasts and often scavenge near harbors.", "waterbird", "Llama-3.2-Vision", "species")
_a("open_waterbirds", "open", "The image shows a woodpecker clinging to a tree trunk, with a red crown and black-and-white barred back. It likely drums on bark to find insects.", "landbird", "InternVL2", "species")
_a("open_waterbirds", "open", "**Species:** Brown pelican\n**Habitat:** coastal waters and estuaries\n**Behavior:** plunge-dives from the air to catch fish", "waterbird", "Gemma-3", "markdown")
_a("open_waterbirds", "open", "The bird is small and brown, standing on a rock near some water. It's hard to identify the species from this image.", "UNPARSEABLE", "LLaVA-1.5", "ambiguous")
_a("open_waterbirds", "open", "This appears to be a northern cardinal, a bright red songbird with a crest and a thick orange beak. It is perched on a wooden post; the background shows a beach, but cardinals live in woodlands and gardens.", "landbird", "MiniCPM-V", "background")
_a("open_waterbirds", "open", "The image shows a tern in mid-dive over the ocean. Terns are waterbirds that hunt fish by plunging into the water from above.", "waterbird", "Qwen2-VL", "species")
_a("open_waterbirds", "open", "A small sparrow sits among bamboo stalks in a dense forest. Sparrows are landbirds that forage on the ground for seeds.", "landbird", "CogVLM", "species")
_a("open_waterbirds", "open", "This bird has long legs and a slender neck, and it is standing in", "UNPARSEABLE", "LLaVA-NeXT", "truncated")
_a("open_waterbirds", "open", "This is an albatross gliding low over the waves, with long narrow wings adapted for dynamic soaring across the open ocean.", "waterbird", "GPT-4o", "species")
