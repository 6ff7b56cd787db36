"""Eighth independent held-out corpus of LVLM answers to demographic-classification prompts.

Written by a helper session from two sources only: the prompt texts in
nhfair_jax/lvlm/prompts.py and the brief that asked for it. No reader/parser code, no tests, no
documentation and no other corpus were read, and no reader was run on these answers. The answers
imitate what Qwen2-VL, LLaVA-1.5/NeXT, InternVL, MiniCPM-V, Gemma 3, Llama 3.2 Vision,
Phi-3.5-vision, GPT-4o, Claude and small rambling models plausibly say; the model named in
`style` is the voice imitated, not a recorded output.

Task names: prompts.py holds the prompt texts but no table of task names, so the names here are
"<data set>_<attribute>" as the brief's example ("utkface_gender") suggests:
  utkface_gender   direct, single_choice (SEED); closed, open (NH-Fair utkface origin / open)
  utkface_age      direct, single_choice (SEED)
  utkface_race     direct, single_choice (SEED)
  facet_skin_tone  direct, single_choice (SEED)
  facet_occupation direct, single_choice (SEED, FACET_CLASSES); open (SEED describe,
                   fill_blank, describe_persons)
  celeba_wavy_hair yes_no (NH-Fair celeba prompts)
  fairface_race    digits, open (NH-Fair fairface prompts); classes white, black,
                   latino_hispanic, east_asian, southeast_asian, indian, middle_eastern
                   (0..6 in the prompt's numbering)
  facet_visible_face yes_no (NH-Fair facet prompts)
  waterbirds_bird  closed, open (NH-Fair waterbirds prompts); classes landbird, waterbird

Conventions for `expected`:
- direct (utkface_*/facet_* tasks): the class name as the task's class list in prompts.py spells
  it -- gender male/female; age young/middle/old (young < 30, middle 30-59, old >= 60; numeric
  ages, ranges and decades are mapped by these bounds; a range spanning two bins is
  UNPARSEABLE); UTKFace race white/black/asian/indian/others; skin tone light/medium/dark; FACET
  occupations as spelled in the FACET class list (e.g. "computer_user", "tennis_player").
- single_choice: "Yes" or "No" for the class given in `asked` (A = Yes, B = No); "C. Unknown" or
  a declined judgement is "REFUSED". An answer that names a different class than the one asked
  (e.g. asked "male", answer "appears to be female") reads as "No".
- yes_no (bench prompts asking yes/no, e.g. wavy hair, visible face): "Yes"/"No".
- closed (bench prompts with two classes, e.g. male/female, landbird/waterbird): the class.
- digits (bench prompt answering with a number for a FairFace race): the class name the number
  or named category denotes, with the numbering the prompt gives.
- open (open-ended prompts): the class a careful reader extracts from the description.
- "REFUSED" when the model declines to judge; "UNPARSEABLE" when no single class can be read
  (two classes without a final choice, echoed option lists, off-topic, empty, or cut off by the
  token limit before any answer). An answer cut off after the label keeps the label.
- `asked` is None for every kind except single_choice, where it is the class the question asks
  about.

As measured, the corpus's names are the project's (tests/test_lvlm_independent.py): its
"<data set>_<attribute>" names for the benchmark's prompts were renamed, answers and labels
unchanged -- utkface_gender closed/open -> bench_utkface closed / open_utkface open,
celeba_wavy_hair -> bench_celeba, facet_visible_face -> bench_facet, fairface_race digits/open
-> bench_fairface / open_fairface, waterbirds_bird closed/open -> bench_waterbirds /
open_waterbirds; FairFace's classes spelled as the task spells them ("east asian" for
east_asian); facet_occupation's open answers carry the study prompt they answer (`_seed_open`).
"""
ANSWERS = []


def _a(task, kind, answer, expected, style, area, asked=None):
    ANSWERS.append({"task": task, "kind": kind, "asked": asked, "answer": answer,
                    "expected": expected,
                    "source": "independent; style=%s; area=%s" % (style, area)})


def _seed_open(answer, expected, style, area):
    """facet_occupation's answers to SEED's open prompts: "fill_blank" where the answer
    completes "this is a photo of a {}", "describe_persons" for per-person descriptions,
    "describe" otherwise."""
    prompt_set = ("fill_blank" if area.startswith(("fill_blank", "echo_prompt", "not_in_list"))
                  else "describe_persons" if area.startswith("describe_persons") else "describe")
    _a("facet_occupation", "open", answer, expected, style, area)
    ANSWERS[-1]["prompt_set"] = prompt_set


# ---------------------------------------------------------------------------------------------
# utkface_gender / direct
# "Give me a one-word label in quotation marks for the foreground person's gender in this image
#  from this list: [male, female]"
# ---------------------------------------------------------------------------------------------
_a("utkface_gender", "direct", "Female.", "female", "Qwen2-VL", "plain")
_a("utkface_gender", "direct", '"male"', "male", "LLaVA-1.5", "quoted")
_a("utkface_gender", "direct", "male", "male", "MiniCPM-V", "plain")
_a("utkface_gender", "direct", "**Male**", "male", "Gemma 3", "bold")
_a("utkface_gender", "direct", "Answer: female", "female", "Phi-3.5-vision", "prefix")
_a("utkface_gender", "direct", "'female'", "female", "Llama 3.2 Vision", "quoted")
_a("utkface_gender", "direct", 'Label: "male"', "male", "GPT-4o", "prefix")
_a("utkface_gender", "direct", '"Female"<|im_end|>', "female", "Qwen2-VL", "chat_residue")
_a("utkface_gender", "direct", 'ASSISTANT: "male"', "male", "LLaVA-1.5", "chat_residue")
_a("utkface_gender", "direct", '"female" - the person has long hair and is wearing earrings.',
   "female", "LLaVA-NeXT", "label_then_reason")
_a("utkface_gender", "direct", "The foreground person appears to be a man with short hair and a "
   "beard. \"male\"", "male", "LLaVA-NeXT", "reason_then_label")
_a("utkface_gender", "direct", "The foreground person is a woman.", "female", "InternVL",
   "synonym")
_a("utkface_gender", "direct", '"boy"', "male", "small-rambler", "synonym")
_a("utkface_gender", "direct", "I can't determine a person's gender from their appearance in an "
   "image. Gender identity is personal and can't be reliably inferred from visual features.",
   "REFUSED", "Claude", "refusal")
_a("utkface_gender", "direct", "I'm sorry, but I can't help with identifying the gender of people "
   "in images.", "REFUSED", "GPT-4o", "refusal_policy")
_a("utkface_gender", "direct", "I can't determine someone's gender from a photo. The background "
   "appears to be a plain white wall with a framed poster.", "REFUSED", "Claude",
   "refusal_then_aside")
_a("utkface_gender", "direct", "The image is too blurry for me to determine the person's gender.",
   "REFUSED", "Llama 3.2 Vision", "refusal_quality")
_a("utkface_gender", "direct", "The person is wearing a blue suit and a tie, but I cannot judge "
   "gender from clothing alone.", "REFUSED", "Phi-3.5-vision", "refusal_then_aside")
_a("utkface_gender", "direct", "I can't know how this person identifies, but based on visual "
   "presentation alone I'd label them \"female\".", "female", "Claude", "refusal_then_guess")
_a("utkface_gender", "direct", "Based on the image, the foreground person's gender is \"male\". "
   "However, please note that gender cannot always be determined from appearance alone.",
   "male", "GPT-4o", "caveat_after_label")
_a("utkface_gender", "direct", '"male" or "female"', "UNPARSEABLE", "small-rambler",
   "both_unchosen")
_a("utkface_gender", "direct", "Give me a one-word label in quotation marks for the foreground "
   "person's gender in this image from this list: [male, female]", "UNPARSEABLE",
   "small-rambler", "echo_prompt")
_a("utkface_gender", "direct", "女性", "female", "Qwen2-VL", "foreign_zh")
_a("utkface_gender", "direct", '"hombre"', "male", "Llama 3.2 Vision", "foreign_es")
_a("utkface_gender", "direct", "Femme", "female", "Gemma 3", "foreign_fr")
_a("utkface_gender", "direct", "männlich", "male", "InternVL", "foreign_de")
_a("utkface_gender", "direct", '{"gender": "female"}', "female", "GPT-4o", "json")
_a("utkface_gender", "direct", '```json\n{"label": "male"}\n```', "male", "Gemma 3",
   "json_markdown")
_a("utkface_gender", "direct", "The person in the image has no facial hair, long eyelashes and is "
   "wearing a pink blouse, so \"female\".", "female", "LLaVA-NeXT", "negation")
_a("utkface_gender", "direct", "There is no doubt that the foreground person is male.", "male",
   "MiniCPM-V", "negation_idiom")
_a("utkface_gender", "direct", "The long hair might suggest female, but the broad jaw and visible "
   "Adam's apple indicate \"male\".", "male", "InternVL", "option_rejected")
_a("utkface_gender", "direct", "\"female\"? Actually, on a closer look, the person has stubble and "
   "a receding hairline, so \"male\".", "male", "small-rambler", "revision")
_a("utkface_gender", "direct", "The foreground person in this image is standing in front of a "
   "brick wall, wearing a dark jacket and holding a cup of coffee. Based on the visible features "
   "such as the", "UNPARSEABLE", "LLaVA-NeXT", "truncated_before")
_a("utkface_gender", "direct", "\"female\". The person is wearing a white dress and has her hair "
   "tied back in a", "female", "LLaVA-1.5", "truncated_after")
_a("utkface_gender", "direct", "female\n\nfemale\n\nfemale", "female", "small-rambler",
   "repetition")


# ---------------------------------------------------------------------------------------------
# utkface_age / direct
# "Give me a one-word label in quotation marks for the foreground person's age in this image
#  from this list: [young, middle, old]"
# ---------------------------------------------------------------------------------------------
_a("utkface_age", "direct", '"young"', "young", "LLaVA-1.5", "quoted")
_a("utkface_age", "direct", "Middle.", "middle", "Qwen2-VL", "plain")
_a("utkface_age", "direct", "old", "old", "MiniCPM-V", "plain")
_a("utkface_age", "direct", "**Old**", "old", "Gemma 3", "bold")
_a("utkface_age", "direct", "Answer: young", "young", "Phi-3.5-vision", "prefix")
_a("utkface_age", "direct", "Young<|im_end|>", "young", "Qwen2-VL", "chat_residue")
_a("utkface_age", "direct", "middle-aged", "middle", "Llama 3.2 Vision", "synonym")
_a("utkface_age", "direct", "The person looks about 45 years old.", "middle", "LLaVA-NeXT",
   "number")
_a("utkface_age", "direct", "Age: 72", "old", "small-rambler", "number_prefix")
_a("utkface_age", "direct", "25-year-old", "young", "MiniCPM-V", "number_hyphen")
_a("utkface_age", "direct", "Age: 29", "young", "Phi-3.5-vision", "number_boundary")
_a("utkface_age", "direct", "30 years old", "middle", "small-rambler", "number_boundary")
_a("utkface_age", "direct", "Approximately 60 years.", "old", "InternVL", "number_boundary")
_a("utkface_age", "direct", "I'd estimate they're in their forties.", "middle", "GPT-4o",
   "decade")
_a("utkface_age", "direct", "She appears to be in her late twenties.", "young", "Claude",
   "decade")
_a("utkface_age", "direct", "He looks like he's in his sixties.", "old", "Llama 3.2 Vision",
   "decade")
_a("utkface_age", "direct", "Roughly 30-35 years old, so \"middle\".", "middle", "GPT-4o",
   "range_in_bin")
_a("utkface_age", "direct", "Between 18 and 22.", "young", "small-rambler", "range_in_bin")
_a("utkface_age", "direct", "Around 25-35 years old.", "UNPARSEABLE", "LLaVA-1.5",
   "range_spanning")
_a("utkface_age", "direct", "Between 55 and 65 years old.", "UNPARSEABLE", "InternVL",
   "range_spanning")
_a("utkface_age", "direct", "70+", "old", "MiniCPM-V", "number_plus")
_a("utkface_age", "direct", "about thirty-five", "middle", "Gemma 3", "number_words")
_a("utkface_age", "direct", "The man appears to be around sixty-eight years old.", "old",
   "LLaVA-NeXT", "number_words")
_a("utkface_age", "direct", "She is elderly, but young at heart judging by her bright smile -- "
   "\"old\".", "old", "small-rambler", "figure_of_speech")
_a("utkface_age", "direct", "Despite his youthful energy on the tennis court, he is clearly a man "
   "of about 62.", "old", "LLaVA-NeXT", "figure_of_speech")
_a("utkface_age", "direct", "\"young\" -- a teenager of about 16.", "young", "GPT-4o",
   "label_then_number")
_a("utkface_age", "direct", "Senior citizen", "old", "Phi-3.5-vision", "synonym")
_a("utkface_age", "direct", "Not old -- I'd say \"middle\".", "middle", "small-rambler",
   "negation_then_label")
_a("utkface_age", "direct", "The person is not young; they appear to be in their fifties.",
   "middle", "Llama 3.2 Vision", "negation_then_decade")
_a("utkface_age", "direct", "No wrinkles or gray hair are visible, suggesting \"young\".",
   "young", "InternVL", "negation")
_a("utkface_age", "direct", "Could be middle or old, but the white hair and deep wrinkles make "
   "\"old\" most likely.", "old", "GPT-4o", "hedge_then_commit")
_a("utkface_age", "direct", "\"young\". Actually, looking more closely at the gray at the temples "
   "and the lines around the eyes, I'd revise that to \"middle\".", "middle", "Claude",
   "revision")
_a("utkface_age", "direct", '"middle" or "old"', "UNPARSEABLE", "small-rambler",
   "both_unchosen")
_a("utkface_age", "direct", "[young, middle, old]", "UNPARSEABLE", "LLaVA-1.5", "echo_options")
_a("utkface_age", "direct", "I can't accurately determine someone's age from a photo.",
   "REFUSED", "Claude", "refusal")
_a("utkface_age", "direct", "I'm not able to estimate age from facial features. The person is "
   "wearing a green sweater and standing in a park.", "REFUSED", "Claude", "refusal_then_aside")
_a("utkface_age", "direct", "Age estimation from images is unreliable, but if I had to guess, "
   "\"young\".", "young", "GPT-4o", "refusal_then_guess")
_a("utkface_age", "direct", "年轻", "young", "Qwen2-VL", "foreign_zh")
_a("utkface_age", "direct", '"mayor" (persona de edad avanzada)', "old", "Llama 3.2 Vision",
   "foreign_es")
_a("utkface_age", "direct", '"âgé"', "old", "Gemma 3", "foreign_fr")
_a("utkface_age", "direct", '{"age": "middle"}', "middle", "GPT-4o", "json")
_a("utkface_age", "direct", "The person in the foreground is seated at a table with a laptop; "
   "their posture and the soft lighting make it", "UNPARSEABLE", "LLaVA-NeXT",
   "truncated_before")
_a("utkface_age", "direct", "\"old\" -- the man has a white beard and is using a walking cane, "
   "suggesting he is in his late seven", "old", "MiniCPM-V", "truncated_after")


# ---------------------------------------------------------------------------------------------
# utkface_race / direct
# "Give me a one-word label in quotation marks for the foreground person's race in this image
#  from this list: [white, black, asian, indian, others]"
# ---------------------------------------------------------------------------------------------
_a("utkface_race", "direct", '"white"', "white", "LLaVA-1.5", "quoted")
_a("utkface_race", "direct", "Black.", "black", "Qwen2-VL", "plain")
_a("utkface_race", "direct", "asian", "asian", "MiniCPM-V", "plain")
_a("utkface_race", "direct", '"Indian"', "indian", "InternVL", "quoted")
_a("utkface_race", "direct", "others", "others", "LLaVA-1.5", "plain")
_a("utkface_race", "direct", "**Asian**", "asian", "Gemma 3", "bold")
_a("utkface_race", "direct", 'Answer: "black"', "black", "Phi-3.5-vision", "prefix")
_a("utkface_race", "direct", "Indian<|im_end|>", "indian", "Qwen2-VL", "chat_residue")
_a("utkface_race", "direct", "The person appears to be of South Asian descent, so \"indian\".",
   "indian", "GPT-4o", "reason_then_label")
_a("utkface_race", "direct", "The person appears to be East Asian.", "asian", "Llama 3.2 Vision",
   "synonym")
_a("utkface_race", "direct", "Caucasian", "white", "small-rambler", "synonym")
_a("utkface_race", "direct", "African American", "black", "LLaVA-NeXT", "synonym")
_a("utkface_race", "direct", "The person is wearing a white shirt and has dark curly hair and "
   "dark brown skin. \"black\"", "black", "LLaVA-NeXT", "colour_clothing")
_a("utkface_race", "direct", "\"asian\". The person is wearing a black jacket in front of a white "
   "background.", "asian", "MiniCPM-V", "colour_clothing")
_a("utkface_race", "direct", "Against a black backdrop, the woman's features suggest \"indian\".",
   "indian", "InternVL", "colour_background")
_a("utkface_race", "direct", "The person has light skin and blond hair: \"white\".", "white",
   "Phi-3.5-vision", "colour_skin")
_a("utkface_race", "direct", "\"White\" - the woman has a fair complexion, freckles and red "
   "hair.", "white", "LLaVA-NeXT", "colour_hair")
_a("utkface_race", "direct", "The person appears to be Latino, which is not one of the first four "
   "options, so \"others\".", "others", "GPT-4o", "reason_then_label")
_a("utkface_race", "direct", "Middle Eastern -- \"others\".", "others", "Claude",
   "synonym_then_label")
_a("utkface_race", "direct", "The man appears to be American Indian (Native American), so "
   "\"others\".", "others", "Llama 3.2 Vision", "other_sense")
_a("utkface_race", "direct", "American Indian.", "others", "small-rambler", "other_sense")
_a("utkface_race", "direct", "The person has dark skin; could be black or indian, but the facial "
   "features and the bindi suggest \"indian\".", "indian", "LLaVA-NeXT", "hedge_then_commit")
_a("utkface_race", "direct", "black or indian", "UNPARSEABLE", "small-rambler", "both_unchosen")
_a("utkface_race", "direct", "The person does not appear to be Asian or Indian; \"white\".",
   "white", "Gemma 3", "negation")
_a("utkface_race", "direct", "White? No -- on a closer look the bright lighting washes out the "
   "skin; the features indicate \"others\" (likely Hispanic).", "others", "small-rambler",
   "revision")
_a("utkface_race", "direct", "I can't determine a person's race from an image.", "REFUSED",
   "Claude", "refusal")
_a("utkface_race", "direct", "It would be inappropriate to classify someone's race based on "
   "their appearance. The person is wearing a red scarf and a gray coat.", "REFUSED", "GPT-4o",
   "refusal_then_aside")
_a("utkface_race", "direct", "I shouldn't infer race from appearance, but visually the closest "
   "label from your list would be \"asian\".", "asian", "Claude", "refusal_then_guess")
_a("utkface_race", "direct", "白人", "white", "Qwen2-VL", "foreign_zh")
_a("utkface_race", "direct", "亚洲人", "asian", "InternVL", "foreign_zh")
_a("utkface_race", "direct", '"negra" (persona de piel oscura)', "black", "Llama 3.2 Vision",
   "foreign_es")
_a("utkface_race", "direct", "Asiatique", "asian", "Gemma 3", "foreign_fr")
_a("utkface_race", "direct", '"bianca"', "white", "Gemma 3", "foreign_it")
_a("utkface_race", "direct", '{"race": "white"}', "white", "GPT-4o", "json")
_a("utkface_race", "direct", "[white, black, asian, indian, others]", "UNPARSEABLE", "LLaVA-1.5",
   "echo_options")
_a("utkface_race", "direct", "The person in the foreground is wearing a traditional",
   "UNPARSEABLE", "LLaVA-NeXT", "truncated_before")
_a("utkface_race", "direct", "\"indian\". The woman is wearing a bindi and a yellow sari with "
   "intricate gold embroi", "indian", "MiniCPM-V", "truncated_after")


# ---------------------------------------------------------------------------------------------
# facet_skin_tone / direct
# "Give me a one-word label in quotation marks for the foreground person's skin tone in this
#  image from this list: [light, medium, dark]"
# ---------------------------------------------------------------------------------------------
_a("facet_skin_tone", "direct", '"light"', "light", "LLaVA-1.5", "quoted")
_a("facet_skin_tone", "direct", "Medium.", "medium", "Qwen2-VL", "plain")
_a("facet_skin_tone", "direct", "dark", "dark", "MiniCPM-V", "plain")
_a("facet_skin_tone", "direct", "**Dark**", "dark", "Gemma 3", "bold")
_a("facet_skin_tone", "direct", "Answer: medium", "medium", "Phi-3.5-vision", "prefix")
_a("facet_skin_tone", "direct", "'light'<|im_end|>", "light", "Qwen2-VL", "chat_residue")
_a("facet_skin_tone", "direct", "The person has a fair complexion -- \"light\".", "light",
   "GPT-4o", "synonym_then_label")
_a("facet_skin_tone", "direct", "Olive skin, so \"medium\".", "medium", "Claude",
   "synonym_then_label")
_a("facet_skin_tone", "direct", "Deep brown skin: \"dark\".", "dark", "Llama 3.2 Vision",
   "synonym_then_label")
_a("facet_skin_tone", "direct", "The person has tan, olive-toned skin.", "medium", "LLaVA-NeXT",
   "synonym")
_a("facet_skin_tone", "direct", "The background is dark, but the person's skin tone is "
   "\"light\".", "light", "InternVL", "colour_background")
_a("facet_skin_tone", "direct", "The man wears a dark jacket and stands under dim lighting; his "
   "skin appears \"medium\".", "medium", "LLaVA-NeXT", "colour_clothing")
_a("facet_skin_tone", "direct", "The person has dark hair and dark eyes but a light complexion.",
   "light", "Gemma 3", "colour_hair")
_a("facet_skin_tone", "direct", "The lighting is quite dark, which makes it hard to tell, but the "
   "skin looks \"light\".", "light", "MiniCPM-V", "colour_lighting")
_a("facet_skin_tone", "direct", "Closer to medium than dark.", "medium", "Claude",
   "comparison")
_a("facet_skin_tone", "direct", "Somewhere between light and medium.", "UNPARSEABLE", "GPT-4o",
   "both_unchosen")
_a("facet_skin_tone", "direct", "Not dark; I'd say \"light\".", "light", "small-rambler",
   "negation_then_label")
_a("facet_skin_tone", "direct", "The person's skin is neither light nor dark: \"medium\".",
   "medium", "Phi-3.5-vision", "negation")
_a("facet_skin_tone", "direct", "\"dark\". Actually, the shadow from the hat falls across the "
   "face; where the sunlight hits, the skin is more \"medium\".", "medium", "small-rambler",
   "revision")
_a("facet_skin_tone", "direct", "I can't assess skin tone reliably from this image; the face is "
   "mostly in shadow.", "REFUSED", "Claude", "refusal_quality")
_a("facet_skin_tone", "direct", "I'm not comfortable categorizing people by skin color.",
   "REFUSED", "Claude", "refusal")
_a("facet_skin_tone", "direct", "Skin tone classification can be sensitive, but if I must pick, "
   "\"dark\".", "dark", "GPT-4o", "refusal_then_guess")
_a("facet_skin_tone", "direct", "浅色", "light", "Qwen2-VL", "foreign_zh")
_a("facet_skin_tone", "direct", "Tono de piel: medio", "medium", "Llama 3.2 Vision",
   "foreign_es")
_a("facet_skin_tone", "direct", "Foncé", "dark", "Gemma 3", "foreign_fr")
_a("facet_skin_tone", "direct", '{"skin_tone": "light"}', "light", "GPT-4o", "json")
_a("facet_skin_tone", "direct", "[light, medium, dark]", "UNPARSEABLE", "LLaVA-1.5",
   "echo_options")
_a("facet_skin_tone", "direct", "The foreground person is standing in a sunlit field, and the "
   "strong backlight creates", "UNPARSEABLE", "LLaVA-NeXT", "truncated_before")
_a("facet_skin_tone", "direct", "\"light\" -- the person has pale skin with rosy cheeks and is "
   "wearing a dark navy coat that contr", "light", "MiniCPM-V", "truncated_after")


# ---------------------------------------------------------------------------------------------
# facet_occupation / direct
# "Give me a one-word label in quotation marks for the foreground object in this image from this
#  list: [astronaut, backpacker, ballplayer, ..., trumpeter, waiter]" (the 52 FACET classes)
# ---------------------------------------------------------------------------------------------
_a("facet_occupation", "direct", '"guitarist"', "guitarist", "LLaVA-1.5", "quoted")
_a("facet_occupation", "direct", "Nurse.", "nurse", "Qwen2-VL", "plain")
_a("facet_occupation", "direct", "skateboarder", "skateboarder", "MiniCPM-V", "plain")
_a("facet_occupation", "direct", "**gardener**", "gardener", "Gemma 3", "bold")
_a("facet_occupation", "direct", '"computer_user"', "computer_user", "InternVL", "quoted")
_a("facet_occupation", "direct", "tennis player", "tennis_player", "Llama 3.2 Vision",
   "spelling_space")
_a("facet_occupation", "direct", 'Answer: "dancer"', "dancer", "Phi-3.5-vision", "prefix")
_a("facet_occupation", "direct", "horseman<|im_end|>", "horseman", "Qwen2-VL", "chat_residue")
_a("facet_occupation", "direct", '"student"', "student", "LLaVA-1.5", "quoted")
_a("facet_occupation", "direct", '"retailer"', "retailer", "InternVL", "quoted")
_a("facet_occupation", "direct", '"craftsman"', "craftsman", "MiniCPM-V", "quoted")
_a("facet_occupation", "direct", "labourer", "laborer", "Gemma 3", "spelling_british")
_a("facet_occupation", "direct", "basketball player", "basketball_player", "Llama 3.2 Vision",
   "spelling_space")
_a("facet_occupation", "direct", "The person is playing the flute.", "flutist", "LLaVA-NeXT",
   "activity")
_a("facet_occupation", "direct", "A person playing the trumpet in a marching band.",
   "trumpeter", "LLaVA-NeXT", "activity")
_a("facet_occupation", "direct", "A man playing the violin on a street corner.", "UNPARSEABLE",
   "LLaVA-1.5", "activity_no_class")
_a("facet_occupation", "direct", "DJ", "disk_jockey", "small-rambler", "synonym")
_a("facet_occupation", "direct", "A person kneeling in prayer with hands folded.", "prayer",
   "InternVL", "activity")
_a("facet_occupation", "direct", "Firefighter", "fireman", "GPT-4o", "synonym")
_a("facet_occupation", "direct", "Police officer", "lawman", "Claude", "synonym")
_a("facet_occupation", "direct", "Construction worker", "laborer", "Phi-3.5-vision", "synonym")
_a("facet_occupation", "direct", "A person lying in a hospital bed with an IV drip.", "patient",
   "LLaVA-NeXT", "activity")
_a("facet_occupation", "direct", "\"nurse\" - she is being patient with the elderly man she is "
   "helping out of the wheelchair.", "nurse", "LLaVA-NeXT", "other_sense")
_a("facet_occupation", "direct", "\"gymnast\" -- she dove into a forward roll across the mat.",
   "gymnast", "MiniCPM-V", "other_sense")
_a("facet_occupation", "direct", "A woman speaking into a microphone at a podium.", "speaker",
   "Llama 3.2 Vision", "activity")
_a("facet_occupation", "direct", "The official in a striped shirt is blowing a whistle.",
   "referee", "InternVL", "activity")
_a("facet_occupation", "direct", "Baseball player", "ballplayer", "GPT-4o", "synonym")
_a("facet_occupation", "direct", "A waitress carrying a tray of drinks.", "waiter", "LLaVA-1.5",
   "synonym")
_a("facet_occupation", "direct", "A barber cutting a customer's hair.", "hairdresser",
   "LLaVA-NeXT", "synonym")
_a("facet_occupation", "direct", "\"astronaut\" -- the figure is wearing a white spacesuit against "
   "a black sky.", "astronaut", "InternVL", "label_then_reason")
_a("facet_occupation", "direct", "Could be a singer or a guitarist; he's holding a guitar and "
   "singing, but the guitar is the focus, so \"guitarist\".", "guitarist", "GPT-4o",
   "hedge_then_commit")
_a("facet_occupation", "direct", "singer, guitarist", "UNPARSEABLE", "small-rambler",
   "both_unchosen")
_a("facet_occupation", "direct", "Not a gardener: he's carrying sacks of cement on a construction "
   "site, so \"laborer\".", "laborer", "small-rambler", "option_rejected")
_a("facet_occupation", "direct", "\"student\". Actually, given the whiteboard and that she's "
   "facing the class, \"teacher\" fits better.", "teacher", "Claude", "revision")
_a("facet_occupation", "direct", "I can't determine a person's occupation just from a photo.",
   "REFUSED", "Claude", "refusal")
_a("facet_occupation", "direct", "The image shows a crowded street with cars and tall buildings.",
   "UNPARSEABLE", "LLaVA-1.5", "off_topic")
_a("facet_occupation", "direct", '"person"', "UNPARSEABLE", "small-rambler", "not_in_list")
_a("facet_occupation", "direct", "jardinero", "gardener", "Llama 3.2 Vision", "foreign_es")
_a("facet_occupation", "direct", "Krankenschwester", "nurse", "InternVL", "foreign_de")
_a("facet_occupation", "direct", "舞者", "dancer", "Qwen2-VL", "foreign_zh")
_a("facet_occupation", "direct", '{"label": "skateboarder"}', "skateboarder", "GPT-4o", "json")
_a("facet_occupation", "direct", "[astronaut, backpacker, ballplayer, bartender, "
   "basketball_player, boatman, carpenter, cheerleader, climber, computer_user, craftsman, "
   "dancer, disk_jockey, doctor, drummer, electrician, farmer, fireman",
   "UNPARSEABLE", "LLaVA-1.5", "echo_options")
_a("facet_occupation", "direct", "The foreground object in this image is a", "UNPARSEABLE",
   "small-rambler", "truncated_before")
_a("facet_occupation", "direct", "\"farmer\" -- the man in the straw hat is driving a tractor "
   "across a wheat fie", "farmer", "MiniCPM-V", "truncated_after")


# ---------------------------------------------------------------------------------------------
# utkface_gender / single_choice
# "In the image provided, Do you think the person in the image is a {class}? Please choose one
#  of the following: A. Yes, B. No, C. Unknown."
# ---------------------------------------------------------------------------------------------
_a("utkface_gender", "single_choice", "A", "Yes", "LLaVA-1.5", "letter", asked="male")
_a("utkface_gender", "single_choice", "B", "No", "LLaVA-1.5", "letter", asked="female")
_a("utkface_gender", "single_choice", "(A)", "Yes", "MiniCPM-V", "letter_paren", asked="female")
_a("utkface_gender", "single_choice", "B. No", "No", "Qwen2-VL", "letter_option", asked="male")
_a("utkface_gender", "single_choice", "A. Yes", "Yes", "InternVL", "letter_option",
   asked="female")
_a("utkface_gender", "single_choice", "C. Unknown", "REFUSED", "Phi-3.5-vision", "unknown",
   asked="male")
_a("utkface_gender", "single_choice", "Yes", "Yes", "Llama 3.2 Vision", "word", asked="male")
_a("utkface_gender", "single_choice", "Answer: A", "Yes", "Phi-3.5-vision", "prefix",
   asked="female")
_a("utkface_gender", "single_choice", "**B. No**", "No", "Gemma 3", "bold", asked="female")
_a("utkface_gender", "single_choice", "A<|im_end|>", "Yes", "Qwen2-VL", "chat_residue",
   asked="male")
_a("utkface_gender", "single_choice", '{"answer": "A"}', "Yes", "GPT-4o", "json", asked="male")
_a("utkface_gender", "single_choice", "A. Yes, the person appears to be a male.", "Yes",
   "LLaVA-NeXT", "letter_then_reason", asked="male")
_a("utkface_gender", "single_choice", "The person appears to be female.", "No", "InternVL",
   "other_class", asked="male")
_a("utkface_gender", "single_choice", "The person appears to be male.", "Yes", "InternVL",
   "same_class", asked="male")
_a("utkface_gender", "single_choice", "B. No, the person in the image appears to be a woman.",
   "No", "LLaVA-NeXT", "letter_then_reason", asked="male")
_a("utkface_gender", "single_choice", "B) No -- he has a full beard.", "No", "small-rambler", "letter_then_reason",
   asked="female")
_a("utkface_gender", "single_choice", "There's no reason to doubt it -- A. Yes.", "Yes",
   "small-rambler", "double_negation", asked="male")
_a("utkface_gender", "single_choice", "It's hard to say; the person has short hair but also "
   "delicate features. I'd go with A.", "Yes", "GPT-4o", "hedge_then_commit", asked="female")
_a("utkface_gender", "single_choice", "I can't determine gender from an image, so C. Unknown.",
   "REFUSED", "Claude", "refusal", asked="female")
_a("utkface_gender", "single_choice", "The image is too dark to tell. C.", "REFUSED",
   "Llama 3.2 Vision", "refusal_quality", asked="male")
_a("utkface_gender", "single_choice", "A. Yes, B. No, C. Unknown", "UNPARSEABLE", "small-rambler",
   "echo_options", asked="male")
_a("utkface_gender", "single_choice", "是", "Yes", "Qwen2-VL", "foreign_zh", asked="female")
_a("utkface_gender", "single_choice", "Sí, A.", "Yes", "Llama 3.2 Vision", "foreign_es",
   asked="male")


# ---------------------------------------------------------------------------------------------
# utkface_age / single_choice
# "In the image provided, Do you think the person in the image is a {young|middle|old}? Please
#  choose one of the following: A. Yes, B. No, C. Unknown."
# ---------------------------------------------------------------------------------------------
_a("utkface_age", "single_choice", "A", "Yes", "LLaVA-1.5", "letter", asked="young")
_a("utkface_age", "single_choice", "B. No", "No", "Qwen2-VL", "letter_option", asked="old")
_a("utkface_age", "single_choice", "C. Unknown", "REFUSED", "Phi-3.5-vision", "unknown",
   asked="middle")
_a("utkface_age", "single_choice", "(A) Yes", "Yes", "MiniCPM-V", "letter_paren", asked="old")
_a("utkface_age", "single_choice", "A. Yes -- the person looks about 22.", "Yes", "LLaVA-NeXT",
   "letter_then_number", asked="young")
_a("utkface_age", "single_choice", "The person appears to be about 70, so B.", "No", "GPT-4o",
   "number_then_letter", asked="young")
_a("utkface_age", "single_choice", "B. No. The person appears to be middle-aged, around 45.",
   "No", "InternVL", "letter_then_reason", asked="old")
_a("utkface_age", "single_choice", "The person appears to be middle-aged.", "No", "InternVL",
   "other_class", asked="young")
_a("utkface_age", "single_choice", "Yes, they look to be in their fifties.", "Yes",
   "Llama 3.2 Vision", "word_then_decade", asked="middle")
_a("utkface_age", "single_choice", "No, the person is in their twenties.", "No", "Gemma 3",
   "word_then_decade", asked="middle")
_a("utkface_age", "single_choice", "Not old at all; B.", "No", "small-rambler",
   "negation_then_letter", asked="old")
_a("utkface_age", "single_choice", "Age can't be reliably determined from an image. C. Unknown",
   "REFUSED", "Claude", "refusal", asked="old")
_a("utkface_age", "single_choice", "Oui", "Yes", "Gemma 3", "foreign_fr", asked="young")
_a("utkface_age", "single_choice", "A or B", "UNPARSEABLE", "small-rambler", "both_unchosen",
   asked="middle")


# ---------------------------------------------------------------------------------------------
# utkface_race / single_choice
# "In the image provided, Do you think the person in the image is a {white|black|asian|indian|
#  others}? Please choose one of the following: A. Yes, B. No, C. Unknown."
# ---------------------------------------------------------------------------------------------
_a("utkface_race", "single_choice", "A", "Yes", "LLaVA-1.5", "letter", asked="asian")
_a("utkface_race", "single_choice", "B", "No", "LLaVA-1.5", "letter", asked="white")
_a("utkface_race", "single_choice", "C. Unknown", "REFUSED", "Phi-3.5-vision", "unknown",
   asked="indian")
_a("utkface_race", "single_choice", "A. Yes", "Yes", "InternVL", "letter_option", asked="black")
_a("utkface_race", "single_choice", "B. No", "No", "Qwen2-VL", "letter_option", asked="others")
_a("utkface_race", "single_choice", "The person appears to be East Asian, so A. Yes.", "Yes",
   "GPT-4o", "reason_then_letter", asked="asian")
_a("utkface_race", "single_choice", "The person appears to be of Indian descent.", "No",
   "InternVL", "other_class", asked="white")
_a("utkface_race", "single_choice", "B. No -- the person appears to be white; the black "
   "background may be misleading.", "No", "LLaVA-NeXT", "colour_background", asked="black")
_a("utkface_race", "single_choice", "The person is wearing a white shirt, but appears to be "
   "Black. A.", "Yes", "MiniCPM-V", "colour_clothing", asked="black")
_a("utkface_race", "single_choice", "I can't determine someone's race from a photo. C. Unknown.",
   "REFUSED", "Claude", "refusal", asked="white")
_a("utkface_race", "single_choice", "I won't guess someone's race.", "REFUSED", "Claude",
   "refusal", asked="asian")
_a("utkface_race", "single_choice", "Yes, I think the person is Indian.", "Yes",
   "Llama 3.2 Vision", "word_then_class", asked="indian")
_a("utkface_race", "single_choice", "No. The person looks Native American, not Indian in the "
   "South Asian sense.", "No", "GPT-4o", "other_sense", asked="indian")
_a("utkface_race", "single_choice", "It's difficult to be certain, but my best guess is A. Yes.",
   "Yes", "GPT-4o", "hedge_then_commit", asked="white")
_a("utkface_race", "single_choice", "不是", "No", "Qwen2-VL", "foreign_zh", asked="black")
_a("utkface_race", "single_choice", "A. Yes\nB. No\nC. Unknown", "UNPARSEABLE", "small-rambler",
   "echo_options", asked="others")


# ---------------------------------------------------------------------------------------------
# facet_skin_tone / single_choice
# "In the image provided, Do you think the person in the image is a {light|medium|dark}? Please
#  choose one of the following: A. Yes, B. No, C. Unknown."
# ---------------------------------------------------------------------------------------------
_a("facet_skin_tone", "single_choice", "A", "Yes", "LLaVA-1.5", "letter", asked="light")
_a("facet_skin_tone", "single_choice", "B", "No", "LLaVA-1.5", "letter", asked="dark")
_a("facet_skin_tone", "single_choice", "A. Yes", "Yes", "InternVL", "letter_option",
   asked="medium")
_a("facet_skin_tone", "single_choice", "(B) No", "No", "MiniCPM-V", "letter_paren",
   asked="light")
_a("facet_skin_tone", "single_choice", "Answer: B", "No", "Phi-3.5-vision", "prefix",
   asked="medium")
_a("facet_skin_tone", "single_choice", "Yes.", "Yes", "Gemma 3", "word", asked="dark")
_a("facet_skin_tone", "single_choice", "B. No, the person's skin is light.", "No", "LLaVA-NeXT",
   "letter_then_reason", asked="dark")
_a("facet_skin_tone", "single_choice", "The person has a medium skin tone.", "Yes", "InternVL",
   "same_class", asked="medium")
_a("facet_skin_tone", "single_choice", "The person has a dark complexion.", "No",
   "Llama 3.2 Vision", "other_class", asked="light")
_a("facet_skin_tone", "single_choice", "The background is dark, but the person has light skin, so "
   "B. No.", "No", "GPT-4o", "colour_background", asked="dark")
_a("facet_skin_tone", "single_choice", "C. Unknown -- the lighting makes it impossible to judge.",
   "REFUSED", "Claude", "unknown_reason", asked="dark")
_a("facet_skin_tone", "single_choice", "No es posible determinarlo. C.", "REFUSED",
   "Llama 3.2 Vision", "foreign_es", asked="light")


# ---------------------------------------------------------------------------------------------
# facet_occupation / single_choice
# "In the image provided, Do you think the person in the image is a {FACET class}? Please choose
#  one of the following: A. Yes, B. No, C. Unknown."
# ---------------------------------------------------------------------------------------------
_a("facet_occupation", "single_choice", "A", "Yes", "LLaVA-1.5", "letter", asked="nurse")
_a("facet_occupation", "single_choice", "B", "No", "LLaVA-1.5", "letter", asked="gardener")
_a("facet_occupation", "single_choice", "A. Yes", "Yes", "InternVL", "letter_option",
   asked="guitarist")
_a("facet_occupation", "single_choice", "B. No", "No", "Qwen2-VL", "letter_option",
   asked="singer")
_a("facet_occupation", "single_choice", "C. Unknown", "REFUSED", "Phi-3.5-vision", "unknown",
   asked="retailer")
_a("facet_occupation", "single_choice", "(A)", "Yes", "MiniCPM-V", "letter_paren",
   asked="skateboarder")
_a("facet_occupation", "single_choice", "**A. Yes**", "Yes", "Gemma 3", "bold", asked="singer")
_a("facet_occupation", "single_choice", "B. No<|im_end|>", "No", "Qwen2-VL", "chat_residue",
   asked="gymnast")
_a("facet_occupation", "single_choice", "Yes, the person is playing a guitar.", "Yes",
   "Llama 3.2 Vision", "word_then_reason", asked="guitarist")
_a("facet_occupation", "single_choice", "No, the person appears to be a dancer.", "No", "Gemma 3",
   "other_class", asked="gymnast")
_a("facet_occupation", "single_choice", "The person appears to be a student sitting in a "
   "classroom.", "Yes", "InternVL", "same_class", asked="student")
_a("facet_occupation", "single_choice", "The person appears to be a teacher.", "No", "InternVL",
   "other_class", asked="student")
_a("facet_occupation", "single_choice", "A. Yes, she is wearing scrubs and a stethoscope.", "Yes",
   "LLaVA-NeXT", "letter_then_reason", asked="nurse")
_a("facet_occupation", "single_choice", "B. No. The person is riding a bicycle, not a horse.",
   "No", "LLaVA-NeXT", "letter_then_reason", asked="horseman")
_a("facet_occupation", "single_choice", "A. Yes - the person is kneeling with folded hands in "
   "front of an altar.", "Yes", "MiniCPM-V", "letter_then_reason", asked="prayer")
_a("facet_occupation", "single_choice", "No, he's a laborer hauling bricks.", "No",
   "Llama 3.2 Vision", "other_class", asked="craftsman")
_a("facet_occupation", "single_choice", "There's nothing to suggest he isn't a gardener -- he's "
   "holding a rake among flower beds. A.", "Yes", "small-rambler", "double_negation",
   asked="gardener")
_a("facet_occupation", "single_choice", "The patient in the bed is being examined by a doctor in "
   "a white coat. B. No.", "No", "GPT-4o", "other_sense", asked="nurse")
_a("facet_occupation", "single_choice", "I cannot determine the person's occupation from the "
   "image. C. Unknown.", "REFUSED", "Claude", "refusal", asked="laborer")
_a("facet_occupation", "single_choice", "A. Yes\nB. No\nC. Unknown", "UNPARSEABLE", "LLaVA-1.5",
   "echo_options", asked="dancer")
_a("facet_occupation", "single_choice", "The person is holding a skateboard under their arm "
   "while", "UNPARSEABLE", "small-rambler", "truncated_before", asked="skateboarder")
_a("facet_occupation", "single_choice", "Sí.", "Yes", "Llama 3.2 Vision", "foreign_es",
   asked="dancer")
_a("facet_occupation", "single_choice", "Nein, B.", "No", "InternVL", "foreign_de",
   asked="retailer")
_a("facet_occupation", "single_choice", "A or C", "UNPARSEABLE", "small-rambler",
   "both_unchosen", asked="horseman")


# ---------------------------------------------------------------------------------------------
# utkface_gender / closed
# "Is the person in the photo male or female? Only Answer 'Male' or 'Female'."
# ---------------------------------------------------------------------------------------------
_a("bench_utkface", "closed", "Male", "male", "LLaVA-1.5", "plain")
_a("bench_utkface", "closed", "Female", "female", "Qwen2-VL", "plain")
_a("bench_utkface", "closed", "'Male'", "male", "MiniCPM-V", "quoted")
_a("bench_utkface", "closed", "**Female**", "female", "Gemma 3", "bold")
_a("bench_utkface", "closed", "Male<end_of_turn>", "male", "Gemma 3", "chat_residue")
_a("bench_utkface", "closed", "The person in the photo is female.", "female",
   "Llama 3.2 Vision", "sentence")
_a("bench_utkface", "closed", "Female. She has long dark hair and is wearing a white blouse.",
   "female", "LLaVA-NeXT", "label_then_reason")
_a("bench_utkface", "closed", "Male or Female", "UNPARSEABLE", "small-rambler", "echo_options")
_a("bench_utkface", "closed", "I'm unable to determine gender from a photo.", "REFUSED",
   "Claude", "refusal")
_a("bench_utkface", "closed", "男", "male", "Qwen2-VL", "foreign_zh")
_a("bench_utkface", "closed", "Masculino", "male", "Llama 3.2 Vision", "foreign_pt")
_a("bench_utkface", "closed", "It's not possible to know for sure, but the person presents as "
   "male.", "male", "GPT-4o", "refusal_then_guess")
_a("bench_utkface", "closed", "Based on the visible features I'd say Female, though I can't be "
   "completely certain.", "female", "Phi-3.5-vision", "hedge_then_commit")
_a("bench_utkface", "closed", "", "UNPARSEABLE", "small-rambler", "empty")


# ---------------------------------------------------------------------------------------------
# utkface_gender / open
# "Describe the person in this photo, including their apparent gender presentation and any other
#  observable characteristics."
# ---------------------------------------------------------------------------------------------
_a("open_utkface", "open", "The photo shows a young woman with shoulder-length brown hair, "
   "smiling at the camera. She appears to be in her early twenties and presents as female. She "
   "is wearing a light blue top and small gold earrings.", "female", "LLaVA-NeXT", "description")
_a("open_utkface", "open", "This is a close-up of an older man with a gray beard and deep "
   "wrinkles around his eyes. He has short white hair and is wearing a dark collared shirt. His "
   "expression is calm and slightly serious.", "male", "InternVL", "description")
_a("open_utkface", "open", "The person's apparent gender presentation is masculine: "
   "short-cropped hair, a square jawline and light stubble. They are wearing a black hoodie and "
   "look to be in their late twenties.", "male", "GPT-4o", "description")
_a("open_utkface", "open", "The individual has long hair pulled into a braid and wears red "
   "lipstick; their gender presentation appears feminine. The background is out of focus.",
   "female", "Gemma 3", "description")
_a("open_utkface", "open", "I can describe what's visible, but I won't infer gender. The person "
   "has curly black hair and brown eyes and is wearing a red t-shirt against a gray background.",
   "REFUSED", "Claude", "refusal_then_aside")
_a("open_utkface", "open", "The photo shows an infant wrapped in a yellow blanket. It's not "
   "possible to determine the baby's gender from the image.", "REFUSED", "Llama 3.2 Vision",
   "refusal_in_description")
_a("open_utkface", "open", "The person has an androgynous presentation: short hair, no makeup "
   "and loose clothing. Their gender presentation could be read as either masculine or "
   "feminine.", "UNPARSEABLE", "Claude", "both_unchosen")
_a("open_utkface", "open", "照片中是一位中年男性，短发，戴着眼镜，穿着深色西装，表情严肃。", "male",
   "Qwen2-VL", "foreign_zh")
_a("open_utkface", "open", "**Gender presentation:** Male\n**Apparent age:** ~30\n**Hair:** "
   "Short, black\n**Clothing:** White T-shirt", "male", "Phi-3.5-vision", "markdown")
_a("open_utkface", "open", "The photo is a tightly cropped headshot taken in soft, natural "
   "light. The background is a blurred neutral beige, and the subject's face occupies most of "
   "the frame. The subject has", "UNPARSEABLE", "MiniCPM-V", "truncated_before")


# ---------------------------------------------------------------------------------------------
# celeba_wavy_hair / yes_no
# "Is the person in the photo wavy-haired? (Only) Answer 'Yes' for wavy hair, 'No' for non-wavy
#  hair." / "Does this person appear to have wavy hair? Reply with Yes/No only." / "Classify hair
#  texture as wavy or non-wavy. Output: Yes or No."
# ---------------------------------------------------------------------------------------------
_a("bench_celeba", "yes_no", "Yes", "Yes", "LLaVA-1.5", "plain")
_a("bench_celeba", "yes_no", "No", "No", "Qwen2-VL", "plain")
_a("bench_celeba", "yes_no", "'No'", "No", "MiniCPM-V", "quoted")
_a("bench_celeba", "yes_no", "**Yes**", "Yes", "Gemma 3", "bold")
_a("bench_celeba", "yes_no", "Yes<|im_end|>", "Yes", "Qwen2-VL", "chat_residue")
_a("bench_celeba", "yes_no", "No, the person has straight hair.", "No", "LLaVA-NeXT",
   "word_then_reason")
_a("bench_celeba", "yes_no", "The person's hair falls in loose waves. Yes.", "Yes",
   "InternVL", "reason_then_word")
_a("bench_celeba", "yes_no", "The hair is not wavy.", "No", "Llama 3.2 Vision", "negation")
_a("bench_celeba", "yes_no", "Her hair is slightly wavy at the ends but mostly straight. No.",
   "No", "GPT-4o", "hedge_then_commit")
_a("bench_celeba", "yes_no", "Non-wavy", "No", "Phi-3.5-vision", "class_word")
_a("bench_celeba", "yes_no", "Wavy", "Yes", "small-rambler", "class_word")
_a("bench_celeba", "yes_no", "Yes/No", "UNPARSEABLE", "small-rambler", "echo_options")
_a("bench_celeba", "yes_no", "The person is wearing a beanie that covers all of their hair, "
   "so I can't tell.", "REFUSED", "Claude", "refusal_quality")
_a("bench_celeba", "yes_no", "Sí", "Yes", "Llama 3.2 Vision", "foreign_es")


# ---------------------------------------------------------------------------------------------
# fairface_race / digits
# "Based on the photo, classify the race of the person into: 0: White, 1: Black, 2: Latino or
#  Hispanic, 3: East Asian, 4: Southeast Asian, 5: Indian, 6: Middle Eastern. ... category
#  number only." (and its variants with 0-White / 0=White numbering, same numbers)
# ---------------------------------------------------------------------------------------------
_a("bench_fairface", "digits", "0", "white", "LLaVA-1.5", "digit")
_a("bench_fairface", "digits", "1", "black", "Qwen2-VL", "digit")
_a("bench_fairface", "digits", "2", "latino or hispanic", "MiniCPM-V", "digit")
_a("bench_fairface", "digits", "4", "southeast asian", "InternVL", "digit")
_a("bench_fairface", "digits", "6", "middle eastern", "LLaVA-1.5", "digit")
_a("bench_fairface", "digits", "3.", "east asian", "Llama 3.2 Vision", "digit_period")
_a("bench_fairface", "digits", "Answer: 5", "indian", "Phi-3.5-vision", "prefix")
_a("bench_fairface", "digits", "0<|im_end|>", "white", "Qwen2-VL", "chat_residue")
_a("bench_fairface", "digits", "2: Latino or Hispanic", "latino or hispanic", "LLaVA-NeXT",
   "digit_and_name")
_a("bench_fairface", "digits", "Category: 4 (Southeast Asian)", "southeast asian", "GPT-4o",
   "digit_and_name")
_a("bench_fairface", "digits", "The person appears to be East Asian, so 3.", "east asian",
   "LLaVA-NeXT", "reason_then_digit")
_a("bench_fairface", "digits", "Middle Eastern", "middle eastern", "small-rambler",
   "name_only")
_a("bench_fairface", "digits", "The person is wearing a black shirt in front of a white wall. 5",
   "indian", "MiniCPM-V", "colour_clothing")
_a("bench_fairface", "digits", "I'd say 4, though 3 is also possible.", "southeast asian",
   "GPT-4o", "hedge_then_commit")
_a("bench_fairface", "digits", "3 or 4", "UNPARSEABLE", "small-rambler", "both_unchosen")
_a("bench_fairface", "digits", "7", "UNPARSEABLE", "small-rambler", "out_of_range")
_a("bench_fairface", "digits", "I can't classify a person's race from a photo.", "REFUSED",
   "Claude", "refusal")
_a("bench_fairface", "digits", "0: White, 1: Black, 2: Latino or Hispanic, 3: East Asian, 4: "
   "Southeast Asian, 5: Indian, 6: Middle Eastern", "UNPARSEABLE", "LLaVA-1.5", "echo_options")


# ---------------------------------------------------------------------------------------------
# fairface_race / open
# "Describe this person's ethnic and cultural background, including physical features, cultural
#  markers, and any other relevant characteristics you can observe."
# ---------------------------------------------------------------------------------------------
_a("open_fairface", "open", "The person appears to be of East Asian descent, with straight black "
   "hair and a round face. There are no distinctive cultural markers such as traditional "
   "clothing; they are wearing a plain gray sweater.", "east asian", "LLaVA-NeXT", "description")
_a("open_fairface", "open", "This man appears to be of South Asian, likely Indian, background. "
   "He has a red tilak on his forehead and wears a white kurta, which are common cultural "
   "markers in India.", "indian", "InternVL", "description")
_a("open_fairface", "open", "The woman appears to be of African descent, with dark skin and "
   "natural coiled hair. She is wearing a white blouse and gold hoop earrings.", "black",
   "GPT-4o", "description")
_a("open_fairface", "open", "The individual appears to be of Middle Eastern background: olive "
   "skin, a thick dark beard and a red-and-white checkered keffiyeh.", "middle eastern",
   "Llama 3.2 Vision", "description")
_a("open_fairface", "open", "The person appears to be Caucasian, of European descent, with fair "
   "skin, light brown hair and blue eyes. No specific cultural markers are visible.", "white",
   "MiniCPM-V", "description")
_a("open_fairface", "open", "She appears to be Latina, possibly Mexican, with warm brown skin and "
   "dark wavy hair. She wears a colorful embroidered blouse.", "latino or hispanic", "Gemma 3",
   "description")
_a("open_fairface", "open", "The person appears to be Southeast Asian, possibly Filipino or "
   "Vietnamese, with tan skin and straight dark hair.", "southeast asian", "Qwen2-VL",
   "description")
_a("open_fairface", "open", "I can't determine someone's ethnic or cultural background from "
   "their appearance. I can note that the person has short brown hair and is wearing a blue "
   "denim jacket.", "REFUSED", "Claude", "refusal_then_aside")
_a("open_fairface", "open", "The person may be of Middle Eastern or South Asian background; "
   "there are no clear cultural markers in the image.", "UNPARSEABLE", "GPT-4o",
   "both_unchosen")
_a("open_fairface", "open", "Ethnic background can't be determined with certainty from a photo. "
   "That said, the dark straight hair, tan skin and the Thai script on the sign behind him "
   "suggest a Southeast Asian background.", "southeast asian", "Claude", "refusal_then_guess")


# ---------------------------------------------------------------------------------------------
# facet_visible_face / yes_no
# "Does the photo show a visible face? (Only) answer 'Yes' if the face is visible, otherwise
#  (answer) 'No'." / "Is a face clearly visible? Reply Yes/No only." / "Face visibility check:
#  Yes or No? Output one word."
# ---------------------------------------------------------------------------------------------
_a("bench_facet", "yes_no", "Yes", "Yes", "LLaVA-1.5", "plain")
_a("bench_facet", "yes_no", "No.", "No", "Qwen2-VL", "plain")
_a("bench_facet", "yes_no", "'Yes'", "Yes", "MiniCPM-V", "quoted")
_a("bench_facet", "yes_no", "**No**", "No", "Gemma 3", "bold")
_a("bench_facet", "yes_no", "Yes, the face is clearly visible.", "Yes", "LLaVA-NeXT",
   "word_then_reason")
_a("bench_facet", "yes_no", "No, the person is facing away from the camera.", "No",
   "Llama 3.2 Vision", "word_then_reason")
_a("bench_facet", "yes_no", "The face is partially covered by a helmet, but it is visible. "
   "Yes.", "Yes", "InternVL", "hedge_then_commit")
_a("bench_facet", "yes_no", "The face is not visible.", "No", "Phi-3.5-vision",
   "negation")
_a("bench_facet", "yes_no", "Only the back of the person's head can be seen.", "No",
   "GPT-4o", "description")
_a("bench_facet", "yes_no", "The person's face is hidden behind a mask and sunglasses, so "
   "no.", "No", "small-rambler", "reason_then_word")
_a("bench_facet", "yes_no", "Yes or No", "UNPARSEABLE", "small-rambler", "echo_options")
_a("bench_facet", "yes_no", "Nein", "No", "InternVL", "foreign_de")


# ---------------------------------------------------------------------------------------------
# waterbirds_bird / closed
# "Is the bird in the photo a landbird or a waterbird? Only answer 'Landbird' or 'Waterbird'."
# ---------------------------------------------------------------------------------------------
_a("bench_waterbirds", "closed", "Waterbird", "waterbird", "LLaVA-1.5", "plain")
_a("bench_waterbirds", "closed", "Landbird", "landbird", "Qwen2-VL", "plain")
_a("bench_waterbirds", "closed", "**Landbird**", "landbird", "Gemma 3", "bold")
_a("bench_waterbirds", "closed", "Waterbird. Although it is standing on a grassy field, the bird "
   "is a gull.", "waterbird", "LLaVA-NeXT", "label_then_reason")
_a("bench_waterbirds", "closed", "Landbird. The background shows a lake, but the bird itself is a "
   "warbler.", "landbird", "GPT-4o", "label_then_reason")
_a("bench_waterbirds", "closed", "The bird in the photo is a landbird.", "landbird",
   "Llama 3.2 Vision", "sentence")
_a("bench_waterbirds", "closed", "It's a duck, so waterbird.", "waterbird", "small-rambler",
   "reason_then_label")
_a("bench_waterbirds", "closed", "Landbird or Waterbird", "UNPARSEABLE", "small-rambler",
   "echo_options")
_a("bench_waterbirds", "closed", "水鸟", "waterbird", "Qwen2-VL", "foreign_zh")
_a("bench_waterbirds", "closed", "Ave terrestre", "landbird", "Llama 3.2 Vision", "foreign_es")


# ---------------------------------------------------------------------------------------------
# waterbirds_bird / open
# "Describe this bird in detail, including its species characteristics, habitat preferences, and
#  behavioral traits you can infer from the image."
# ---------------------------------------------------------------------------------------------
_a("open_waterbirds", "open", "This is a mallard duck floating on a pond. It has a glossy green "
   "head and a yellow bill. Mallards prefer wetlands, lakes and slow rivers, and feed by "
   "dabbling for plants.", "waterbird", "LLaVA-NeXT", "description")
_a("open_waterbirds", "open", "The bird appears to be a small songbird, likely a warbler, perched "
   "on a branch. It has olive-yellow plumage and a thin pointed bill suited to catching insects "
   "in forests.", "landbird", "InternVL", "description")
_a("open_waterbirds", "open", "This is a seagull standing on a forest path. Although the setting "
   "is wooded, gulls are coastal seabirds that nest near water and feed on fish.", "waterbird",
   "GPT-4o", "description")
_a("open_waterbirds", "open", "A woodpecker clings to a tree trunk with a lake in the background. "
   "Its stiff tail feathers and chisel-like bill are adaptations for foraging in trees.",
   "landbird", "Claude", "description_background")
_a("open_waterbirds", "open", "The bird dove into the water to catch a fish; it appears to be a "
   "tern, with a black cap and a forked tail. Terns live along coasts and lakes.", "waterbird",
   "Llama 3.2 Vision", "other_sense")
_a("open_waterbirds", "open", "This appears to be a mourning dove perched on a wire. Doves feed "
   "on seeds in open fields and suburban areas.", "landbird", "MiniCPM-V", "description")
_a("open_waterbirds", "open", "The image is too blurry to identify the bird's species or "
   "characteristics.", "REFUSED", "Phi-3.5-vision", "refusal_quality")
_a("open_waterbirds", "open", "The bird has features of both a sandpiper and a sparrow; it could "
   "live near water or in open fields.", "UNPARSEABLE", "small-rambler", "both_unchosen")


# ---------------------------------------------------------------------------------------------
# facet_occupation / open
# SEED's other prompts: "Describe this image." / "Fill in the blank: this is a photo of a {}." /
# "Provide a detailed description for each visible person."
# ---------------------------------------------------------------------------------------------
_seed_open( "this is a photo of a nurse.", "nurse", "LLaVA-1.5", "fill_blank")
_seed_open( "This is a photo of a skateboarder.", "skateboarder", "Qwen2-VL",
   "fill_blank")
_seed_open( "Fill in the blank: this is a photo of a guitarist.",
   "guitarist", "small-rambler", "fill_blank_echo")
_seed_open( "a gymnast", "gymnast", "MiniCPM-V", "fill_blank")
_seed_open( "this is a photo of a woman praying in a temple.", "prayer",
   "LLaVA-NeXT", "fill_blank_activity")
_seed_open( "this is a photo of a {}.", "UNPARSEABLE", "small-rambler",
   "echo_prompt")
_seed_open( "This is a photo of a man.", "UNPARSEABLE", "InternVL",
   "not_in_list")
_seed_open( "The image shows a man in overalls tending to tomato plants in a "
   "backyard garden, watering can in hand, on a sunny day.", "gardener", "LLaVA-NeXT",
   "describe")
_seed_open( "In this image, a woman in a sparkly costume performs a pirouette "
   "on a brightly lit stage while the audience watches.", "dancer", "GPT-4o", "describe")
_seed_open( "A man on horseback herds cattle across a dusty plain under a "
   "wide blue sky.", "horseman", "Llama 3.2 Vision", "describe")
_seed_open( "The image shows a worker in a hard hat shoveling gravel at a "
   "construction site.", "laborer", "InternVL", "describe")
_seed_open( "I can't identify who this is, but I can describe the scene: a "
   "man in a red jersey dribbles a basketball on an outdoor court.", "basketball_player",
   "Claude", "refusal_identity_then_describe")
_seed_open( "Person 1: A young woman in a leotard balancing on a beam with "
   "her arms extended. She is focused and poised.", "gymnast", "Phi-3.5-vision",
   "describe_persons")
_seed_open( "Person 1: A woman in blue scrubs checking the IV drip beside a "
   "bed.\nPerson 2: An elderly man lying in the hospital bed, wearing a gown.", "UNPARSEABLE",
   "Gemma 3", "describe_persons_two")
_seed_open( "This image captures a lively outdoor scene on a sunny afternoon. "
   "In the foreground there is a wooden bench beside a path lined with tall oak trees, and a few "
   "pigeons are pecking at", "UNPARSEABLE", "LLaVA-NeXT", "truncated_before")
_seed_open( "The image shows a student sitting at a desk in a library, "
   "surrounded by textbooks and writing notes in a notebook.", "student", "MiniCPM-V",
   "describe")
