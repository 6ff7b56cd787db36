"""Held-out answer corpus for the LVLM answer reader (corpus51b).

Written by an independent writer. The only inputs were the LVLM study's prompts
and the issue text describing tasks, kinds,
classes and reading conventions. Neither the reader's code nor any other
answer corpus or test file was seen. Every ``expected`` value was decided by
reading the answer as a careful human would; no parser was run to produce it.

Each entry of ``ANSWERS`` is a dict with keys:
  task      utkface_gender | utkface_race | utkface_age | facet_gender |
            facet_age | facet_skin_tone | facet_occupation | bench_celeba |
            bench_facet | bench_utkface | bench_waterbirds | bench_fairface |
            open_utkface | open_fairface | open_waterbirds
  kind      direct | single_choice | yes_no | closed | digits | open
  asked     the class named in a single_choice question, else None
  answer    the model's raw free-text answer
  expected  a class of the task (case-insensitive), "Yes"/"No" for
            single_choice, or "REFUSED" / "UNPARSEABLE"
  source    "independent; style=<model family imitated>; area=<area>"

Kept as written (the fourth corpus, issue 51). Its first reading, 317 of 330 distinct answers
(96.1%) read as the writer expected and 0 read as a wrong class, was taken with the reader of
the time, before any change made for it; the reader was then changed for its 13 misses (see
docs/lvlm.md), so it is no longer held out.
"""

ANSWERS = []


def _a(task, kind, answer, expected, style, area, asked=None):
    ANSWERS.append({
        "task": task,
        "kind": kind,
        "asked": asked,
        "answer": answer,
        "expected": expected,
        "source": "independent; style=%s; area=%s" % (style, area),
    })


# ---------------------------------------------------------------- gender (direct)
T, K = "utkface_gender", "direct"
_a(T, K, '"male"', "male", "LLaVA", "plain")
_a(T, K, "Female", "female", "Qwen2-VL", "plain")
_a(T, K, "**Female**", "female", "Gemma3", "plain")
_a(T, K, "The foreground person's gender is \"male\".", "male", "MiniCPM-V", "plain")
_a(T, K, '<|im_start|>assistant\nmale<|im_end|>', "male", "Qwen2-VL", "residue")
_a(T, K, "Not male.", "female", "InternVL", "negation")
_a(T, K, "The person is not female.", "male", "MiniCPM-V", "negation")
_a(T, K, "No beard or stubble is visible, and the person looks female.", "female", "GPT-4o", "negation")
_a(T, K, "It would not be accurate to say the person is not male.", "male", "Claude", "negation")
_a(T, K, "No doubt: female.", "female", "Llama3.2-Vision", "negation")
_a(T, K, "I'm not able to determine someone's gender from a photo. The person is wearing a black hoodie.", "REFUSED", "Claude", "refusal-desc")
_a(T, K, "I'd prefer not to label gender.", "REFUSED", "Claude", "refusal")
_a(T, K, '"male", "female"', "UNPARSEABLE", "LLaVA", "two-or-none")
_a(T, K, "Possibly male, though I can't be fully certain from a single photo.", "male", "GPT-4o", "hedged")
_a(T, K, 'Could be read either way, but I lean toward "female".', "female", "Gemma3", "hedged")

T = "facet_gender"
_a(T, K, "male", "male", "InternVL", "plain")
_a(T, K, '"female"', "female", "LLaVA", "plain")
_a(T, K, "The person in the foreground appears to be male, wearing a white helmet.", "male", "MiniCPM-V", "colour")
_a(T, K, 'Based on visible cues, "female". Note that gender cannot be determined with certainty from appearance.', "female", "GPT-4o", "hedged")
_a(T, K, 'Male or female? Hard to say, but "male" seems more likely.', "male", "Gemma3", "hedged")
_a(T, K, "I cannot determine the gender of the person in this image, as their face is hidden behind a welding mask.", "REFUSED", "Llama3.2-Vision", "refusal")
_a(T, K, "The person has no long hair and no makeup; I would say male.", "male", "MiniCPM-V", "negation")
_a(T, K, "USER: <image>\nGive me a one-word label in quotation marks for the foreground person's gender in this image from this list: [male, female] ASSISTANT: \"female\"", "female", "LLaVA", "residue")

# ---------------------------------------------------------------- age (direct)
T = "utkface_age"
_a(T, K, '"young"', "young", "LLaVA", "plain")
_a(T, K, "Middle", "middle", "Qwen2-VL", "plain")
_a(T, K, '"old"', "old", "InternVL", "plain")
_a(T, K, "The person looks about 45.", "middle", "MiniCPM-V", "age-number")
_a(T, K, "He is 35 years old.", "middle", "Llama3.2-Vision", "age-number")
_a(T, K, "Age: 8", "young", "Qwen2-VL", "age-number")
_a(T, K, "Age: 30", "middle", "InternVL", "age-number")
_a(T, K, "29 years old.", "young", "LLaVA", "age-number")
_a(T, K, "She looks 59.", "middle", "MiniCPM-V", "age-number")
_a(T, K, "Estimated age: 60.", "old", "GPT-4o", "age-number")
_a(T, K, "60+", "old", "InternVL", "age-number")
_a(T, K, "Probably in her seventies.", "old", "GPT-4o", "age-number")
_a(T, K, "Early twenties.", "young", "Claude", "age-number")
_a(T, K, "Late 50s", "middle", "MiniCPM-V", "age-number")
_a(T, K, "Mid-60s", "old", "Gemma3", "age-number")
_a(T, K, "20-25", "young", "InternVL", "age-number")
_a(T, K, "40\u201350 years", "middle", "Qwen2-VL", "age-number")
_a(T, K, "25-35", "UNPARSEABLE", "InternVL", "age-number")
_a(T, K, "Somewhere between 55 and 65.", "UNPARSEABLE", "GPT-4o", "age-number")
_a(T, K, "The person looks like a 72-year-old man.", "old", "LLaVA", "age-number")
_a(T, K, "A 4-year-old child.", "young", "MiniCPM-V", "age-number")
_a(T, K, "Young at heart, perhaps, but the face suggests someone around 70.", "old", "Claude", "age-number")
_a(T, K, "The subject, aged 34, wears rectangular glasses.", "middle", "GPT-4o", "age-number")
_a(T, K, "The person is an infant, likely under 2 years old.", "young", "Llama3.2-Vision", "age-number")
_a(T, K, "Not old.", "UNPARSEABLE", "InternVL", "negation")
_a(T, K, 'Neither young nor old: "middle".', "middle", "Gemma3", "negation")
_a(T, K, "Between young and middle, closer to middle.", "middle", "MiniCPM-V", "hedged")
_a(T, K, "Young or middle \u2014 I'd go with young.", "young", "GPT-4o", "hedged")
_a(T, K, "I can't estimate age reliably from this photo.", "REFUSED", "Claude", "refusal")

T = "facet_age"
_a(T, K, "young", "young", "InternVL", "plain")
_a(T, K, '"middle"', "middle", "LLaVA", "plain")
_a(T, K, "Old.", "old", "Qwen2-VL", "plain")
_a(T, K, "The foreground person seems to be in their 30s.", "middle", "MiniCPM-V", "age-number")
_a(T, K, "Around 18-22.", "young", "InternVL", "age-number")
_a(T, K, "Age: 41", "middle", "Qwen2-VL", "age-number")
_a(T, K, "She looks about 27, though she's wearing an old-fashioned dress.", "young", "GPT-4o", "age-number")
_a(T, K, "Approximately 45-65", "UNPARSEABLE", "InternVL", "age-number")
_a(T, K, '"old" \u2014 the person appears to be around 75.', "old", "Gemma3", "age-number")
_a(T, K, "Not young.", "UNPARSEABLE", "InternVL", "negation")
_a(T, K, "Middle-aged.", "middle", "GPT-4o", "plain")
_a(T, K, "Elderly.", "old", "Qwen2-VL", "plain")
_a(T, K, "I am unable to determine age; the image is dark and the person is backlit.", "REFUSED", "Llama3.2-Vision", "refusal-desc")

# ---------------------------------------------------------------- race (direct)
T = "utkface_race"
_a(T, K, '"white"', "white", "LLaVA", "plain")
_a(T, K, "Asian", "asian", "Qwen2-VL", "plain")
_a(T, K, '"black"', "black", "InternVL", "plain")
_a(T, K, "indian", "indian", "InternVL", "plain")
_a(T, K, '"others"', "others", "LLaVA", "plain")
_a(T, K, "Other", "others", "MiniCPM-V", "plain")
_a(T, K, "Others (the person appears Hispanic).", "others", "GPT-4o", "others-by-name")
_a(T, K, '<start_of_turn>model\n**Black**<end_of_turn>', "black", "Gemma3", "residue")
_a(T, K, 'The person has black hair and a white shirt; ethnically they appear "asian".', "asian", "MiniCPM-V", "colour")
_a(T, K, 'The background is black, but the person is "white".', "white", "LLaVA", "colour")
_a(T, K, "The person is wearing a white T-shirt.", "UNPARSEABLE", "Llama3.2-Vision", "colour")
_a(T, K, "Black hair, dark eyes.", "UNPARSEABLE", "InternVL", "colour")
_a(T, K, "Not white.", "UNPARSEABLE", "InternVL", "negation")
_a(T, K, 'The person is not asian; I would say "indian".', "indian", "MiniCPM-V", "negation")
_a(T, K, "Asian or indian \u2014 leaning indian.", "indian", "Gemma3", "hedged")
_a(T, K, '"asian", "others"', "UNPARSEABLE", "LLaVA", "two-or-none")
_a(T, K, "Between asian and others, the best fit is others.", "others", "GPT-4o", "others-by-name")
_a(T, K, 'The person appears to be American Indian, which falls under "others".', "others", "Claude", "other-sense")
_a(T, K, "I'm not able to determine a person's race from an image.", "REFUSED", "Llama3.2-Vision", "refusal")
_a(T, K, "I can't classify race. The photo has a white background and soft lighting.", "REFUSED", "Claude", "refusal-desc")
_a(T, K, "I would rather not assign a racial label.", "REFUSED", "Claude", "refusal")

# ---------------------------------------------------------------- skin tone (direct)
T = "facet_skin_tone"
_a(T, K, '"light"', "light", "LLaVA", "plain")
_a(T, K, "Medium", "medium", "Qwen2-VL", "plain")
_a(T, K, "dark", "dark", "InternVL", "plain")
_a(T, K, "The skin tone is medium; the shirt is dark blue.", "medium", "MiniCPM-V", "colour")
_a(T, K, "Dark lighting, but the person's skin appears light.", "light", "GPT-4o", "colour")
_a(T, K, "The person has dark hair and wears a light jacket.", "UNPARSEABLE", "Llama3.2-Vision", "colour")
_a(T, K, "The person's skin looks dark, and the background is a light gray wall.", "dark", "Gemma3", "colour")
_a(T, K, "Between medium and dark, closer to dark.", "dark", "GPT-4o", "hedged")
_a(T, K, "Light to medium, closer to light.", "light", "Claude", "hedged")
_a(T, K, 'Skin tone is difficult to judge in this lighting, but I\'d say "light".', "light", "Claude", "hedged")
_a(T, K, 'Not light, not dark: "medium".', "medium", "Gemma3", "negation")
_a(T, K, "Not dark.", "UNPARSEABLE", "InternVL", "negation")
_a(T, K, "I can't assess skin tone here. The image is very dark and grainy.", "REFUSED", "Claude", "refusal-desc")

# ---------------------------------------------------------------- occupation (direct)
T = "facet_occupation"
_a(T, K, '"guitarist"', "guitarist", "LLaVA", "plain")
_a(T, K, "Nurse", "nurse", "Qwen2-VL", "plain")
_a(T, K, '"basketball_player"', "basketball_player", "LLaVA", "plain")
_a(T, K, "basketball player", "basketball_player", "InternVL", "plain")
_a(T, K, "Soccer player.", "soccer_player", "Qwen2-VL", "plain")
_a(T, K, '"gardener"', "gardener", "LLaVA", "plain")
_a(T, K, "Labourer", "laborer", "MiniCPM-V", "plain")
_a(T, K, '"prayer"', "prayer", "LLaVA", "plain")
_a(T, K, "singer", "singer", "InternVL", "plain")
_a(T, K, '"dancer"', "dancer", "LLaVA", "plain")
_a(T, K, "Retailer.", "retailer", "Qwen2-VL", "plain")
_a(T, K, '"student"', "student", "LLaVA", "plain")
_a(T, K, "Gymnast", "gymnast", "Qwen2-VL", "plain")
_a(T, K, '"horseman"', "horseman", "LLaVA", "plain")
_a(T, K, "computer user", "computer_user", "InternVL", "plain")
_a(T, K, '<|start_header_id|>assistant<|end_header_id|>\n\n"electrician"<|eot_id|>', "electrician", "Llama3.2-Vision", "residue")
_a(T, K, 'The man is holding a microphone at a podium, so "speaker".', "speaker", "MiniCPM-V", "plain")
_a(T, K, "A drummer.", "drummer", "MiniCPM-V", "plain")
_a(T, K, '"skateboarder" (the person is wearing knee guards and a helmet)', "skateboarder", "GPT-4o", "other-sense")
_a(T, K, "Soccer player \u2014 note the shin guards and cleats.", "soccer_player", "Gemma3", "other-sense")
_a(T, K, "A disk jockey behind turntables, with a large speaker beside him.", "disk_jockey", "MiniCPM-V", "other-sense")
_a(T, K, 'It\'s hard to judge from the angle, but "farmer".', "farmer", "Claude", "other-sense")
_a(T, K, '"teacher" \u2014 a patient one, kneeling beside a child at a desk.', "teacher", "GPT-4o", "other-sense")
_a(T, K, "A patient-looking nurse checking a chart.", "nurse", "Llama3.2-Vision", "other-sense")
_a(T, K, '"laborer" (wearing a hard hat, not a guard uniform)', "laborer", "GPT-4o", "negation")
_a(T, K, 'Not a doctor; "nurse".', "nurse", "Gemma3", "negation")
_a(T, K, "Not a singer.", "UNPARSEABLE", "InternVL", "negation")
_a(T, K, '"dancer" or "gymnast"', "UNPARSEABLE", "LLaVA", "two-or-none")
_a(T, K, "Gymnast or dancer? The leotard and balance beam point to gymnast.", "gymnast", "GPT-4o", "hedged")
_a(T, K, "I'm unable to identify an occupation. The person stands in front of a white van.", "REFUSED", "Claude", "refusal-desc")

# ---------------------------------------------------------------- single choice
K = "single_choice"
T = "utkface_gender"
_a(T, K, "A", "Yes", "InternVL", "plain", "male")
_a(T, K, "B. No", "No", "LLaVA", "plain", "male")
_a(T, K, "C. Unknown", "REFUSED", "LLaVA", "refusal", "male")
_a(T, K, "The person is a woman.", "No", "MiniCPM-V", "sentence", "male")
_a(T, K, "A. Yes, the person appears to be male.", "Yes", "GPT-4o", "plain", "male")
_a(T, K, "Not C \u2014 A.", "Yes", "Gemma3", "hedged", "male")
_a(T, K, "Yes", "Yes", "Qwen2-VL", "plain", "female")
_a(T, K, "The person appears to be male.", "No", "Llama3.2-Vision", "sentence", "female")
_a(T, K, "No doubt about it: A.", "Yes", "Gemma3", "negation", "female")
_a(T, K, "Unknown", "REFUSED", "Qwen2-VL", "refusal", "female")
_a(T, K, "I'd prefer not to guess someone's gender.", "REFUSED", "Claude", "refusal", "female")
_a(T, K, "A or B", "UNPARSEABLE", "InternVL", "two-or-none", "female")
T = "utkface_race"
_a(T, K, "B. No. The shirt is white, but the person appears to be Black.", "No", "GPT-4o", "colour", "white")
_a(T, K, "The person appears to be White.", "No", "MiniCPM-V", "sentence", "asian")
_a(T, K, "C", "REFUSED", "InternVL", "refusal", "asian")
_a(T, K, "I cannot determine race. The background is a dark studio backdrop.", "REFUSED", "Llama3.2-Vision", "refusal-desc", "asian")
_a(T, K, "Answer: A", "Yes", "Qwen2-VL", "plain", "indian")
_a(T, K, "B \u2014 the person appears to be Indian.", "No", "Gemma3", "sentence", "others")
_a(T, K, 'A. Yes \u2014 the person appears Middle Eastern, which fits "others".', "Yes", "GPT-4o", "others-by-name", "others")
_a(T, K, "The person has black hair but is not Black: B.", "No", "Claude", "colour", "black")
_a(T, K, "No, the person is not black.", "No", "LLaVA", "negation", "black")
T = "utkface_age"
_a(T, K, "The person looks about 19.", "Yes", "MiniCPM-V", "age-number", "young")
_a(T, K, "B. No, they look around 50.", "No", "GPT-4o", "age-number", "young")
_a(T, K, "They look around 70.", "No", "Gemma3", "age-number", "middle")
_a(T, K, "A \u2014 roughly 40.", "Yes", "Qwen2-VL", "age-number", "middle")
_a(T, K, "The person is 35 years old.", "No", "Llama3.2-Vision", "age-number", "old")
_a(T, K, "Yes, probably in their eighties.", "Yes", "Claude", "age-number", "old")
T = "facet_gender"
_a(T, K, "B. No, the person is male.", "No", "LLaVA", "sentence", "female")
_a(T, K, "C. Unknown \u2014 the person is facing away.", "REFUSED", "GPT-4o", "refusal", "male")
_a(T, K, "No, this is a woman.", "No", "MiniCPM-V", "sentence", "male")
T = "facet_age"
_a(T, K, "The person appears to be in their 60s, so no.", "No", "Gemma3", "age-number", "young")
_a(T, K, "B. The person is 45 years old.", "No", "MiniCPM-V", "age-number", "old")
T = "facet_skin_tone"
_a(T, K, "The person's skin appears dark.", "No", "Llama3.2-Vision", "sentence", "light")
_a(T, K, "A. Yes.", "Yes", "LLaVA", "plain", "light")
_a(T, K, "No \u2014 the jacket is dark, but the skin is light.", "No", "Claude", "colour", "dark")
_a(T, K, "C. Unknown. The lighting is too dim.", "REFUSED", "GPT-4o", "refusal-desc", "medium")
_a(T, K, "Between A and B, I choose A.", "Yes", "Gemma3", "hedged", "medium")
T = "facet_occupation"
_a(T, K, "No, this person appears to be a doctor.", "No", "MiniCPM-V", "sentence", "nurse")
_a(T, K, "A. Yes \u2014 she is wearing scrubs.", "Yes", "GPT-4o", "plain", "nurse")
_a(T, K, "USER: <image>\nIn the image provided, Do you think the person in the image is a nurse? Please choose one of the following: A. Yes, B. No, C. Unknown. ASSISTANT: B", "No", "LLaVA", "residue", "nurse")
_a(T, K, "A<|im_end|>", "Yes", "Qwen2-VL", "residue", "doctor")
_a(T, K, "The person is playing a guitar on stage, so yes.", "Yes", "Gemma3", "sentence", "guitarist")
_a(T, K, "A. Yes, riding a skateboard with knee guards.", "Yes", "InternVL", "other-sense", "skateboarder")
_a(T, K, "B. No \u2014 the shin guards belong to a soccer player.", "No", "GPT-4o", "other-sense", "guard")
_a(T, K, "B. No; the person is a doctor examining someone.", "No", "MiniCPM-V", "plain", "patient")
_a(T, K, "I can't judge that from this image.", "REFUSED", "Claude", "other-sense", "judge")
_a(T, K, "My first thought was B, but looking at the backpack and textbook, A.", "Yes", "GPT-4o", "hedged", "student")
_a(T, K, "C... no, B.", "No", "Gemma3", "hedged", "dancer")
_a(T, K, "I would prefer to choose C.", "REFUSED", "Claude", "refusal", "farmer")
_a(T, K, "The person is typing on a laptop. A.", "Yes", "MiniCPM-V", "plain", "computer_user")
_a(T, K, "B. No, the person is a guitarist.", "No", "LLaVA", "sentence", "singer")
_a(T, K, "**B. No**", "No", "Gemma3", "plain", "retailer")
_a(T, K, "A and C", "UNPARSEABLE", "InternVL", "two-or-none", "prayer")

# ---------------------------------------------------------------- yes/no benchmark
K = "yes_no"
T = "bench_celeba"
_a(T, K, "Yes", "Yes", "LLaVA", "plain")
_a(T, K, "No", "No", "LLaVA", "plain")
_a(T, K, "**No**", "No", "Gemma3", "plain")
_a(T, K, "No, the hair is straight.", "No", "GPT-4o", "plain")
_a(T, K, "The hair is straight.", "No", "Llama3.2-Vision", "sentence")
_a(T, K, "Non-wavy", "No", "Qwen2-VL", "plain")
_a(T, K, "The hair isn't wavy.", "No", "MiniCPM-V", "negation")
_a(T, K, "Her hair is not straight; it falls in loose waves.", "Yes", "Claude", "negation")
_a(T, K, "No doubt, yes \u2014 the hair is clearly wavy.", "Yes", "Gemma3", "negation")
_a(T, K, "There is no hat, and the hair is wavy.", "Yes", "MiniCPM-V", "negation")
_a(T, K, "It is not the case that the hair is non-wavy.", "Yes", "Claude", "negation")
_a(T, K, "I wouldn't call it wavy.", "No", "GPT-4o", "negation")
_a(T, K, "The hair is black and wavy.", "Yes", "Llama3.2-Vision", "colour")
_a(T, K, "I can't tell; the hair is covered by a scarf.", "REFUSED", "Claude", "refusal-desc")
_a(T, K, "Yes/No", "UNPARSEABLE", "InternVL", "two-or-none")
_a(T, K, "USER: <image>\nIs the person in the photo wavy-haired? Only Answer 'Yes' for wavy hair, 'No' for non-wavy hair. ASSISTANT: No", "No", "LLaVA", "residue")
_a(T, K, "<|im_start|>assistant\nYes<|im_end|>", "Yes", "Qwen2-VL", "residue")

T = "bench_facet"
_a(T, K, "Yes", "Yes", "InternVL", "plain")
_a(T, K, "No", "No", "Qwen2-VL", "plain")
_a(T, K, "Yes, the face is clearly visible.", "Yes", "GPT-4o", "plain")
_a(T, K, "No. The person is facing away from the camera.", "No", "Llama3.2-Vision", "plain")
_a(T, K, "The face is hidden behind a welding mask.", "No", "Gemma3", "sentence")
_a(T, K, "Not visible.", "No", "InternVL", "negation")
_a(T, K, "The face is not hidden.", "Yes", "Claude", "negation")
_a(T, K, "There's no doubt the face is visible.", "Yes", "Claude", "negation")
_a(T, K, "I cannot see a face; the person is wearing a full-face helmet. No.", "No", "Llama3.2-Vision", "negation")
_a(T, K, "[INST] <image>\nIs a face clearly visible? Reply Yes/No only. [/INST] No", "No", "Llama3.2-Vision", "residue")
_a(T, K, "Face visibility check: Yes or No? Output one word. Yes", "Yes", "MiniCPM-V", "residue")

# ---------------------------------------------------------------- closed benchmark
K = "closed"
T = "bench_utkface"
_a(T, K, "Male", "Male", "LLaVA", "plain")
_a(T, K, "Female", "Female", "LLaVA", "plain")
_a(T, K, "The person is female.", "Female", "MiniCPM-V", "plain")
_a(T, K, "**Female**", "Female", "Gemma3", "plain")
_a(T, K, "Woman.", "Female", "Qwen2-VL", "plain")
_a(T, K, "Not female.", "Male", "InternVL", "negation")
_a(T, K, "Female (not male).", "Female", "Gemma3", "negation")
_a(T, K, "Likely male, but gender can't be confirmed from appearance alone.", "Male", "GPT-4o", "hedged")
_a(T, K, "Male or Female", "UNPARSEABLE", "LLaVA", "two-or-none")
_a(T, K, "I can't determine gender from a photo.", "REFUSED", "Llama3.2-Vision", "refusal")
_a(T, K, "USER: <image>\nIs the person in the photo male or female? Only Answer 'Male' or 'Female'. ASSISTANT: Female", "Female", "LLaVA", "residue")

T = "bench_waterbirds"
_a(T, K, "Waterbird", "Waterbird", "LLaVA", "plain")
_a(T, K, "Landbird", "Landbird", "LLaVA", "plain")
_a(T, K, "Land bird", "Landbird", "InternVL", "plain")
_a(T, K, "A sparrow, so landbird.", "Landbird", "Gemma3", "plain")
_a(T, K, "Landbird, though it is standing near water.", "Landbird", "GPT-4o", "habitat")
_a(T, K, "The bird is perched by a lake, but it is a landbird.", "Landbird", "MiniCPM-V", "habitat")
_a(T, K, "Waterbird \u2014 the setting is a forest, but its webbed feet give it away.", "Waterbird", "Claude", "habitat")
_a(T, K, "Not a waterbird.", "Landbird", "InternVL", "negation")
_a(T, K, "Landbird. There's no water bird here despite the beach background.", "Landbird", "Gemma3", "negation")
_a(T, K, "Initially waterbird because of the lake, but on closer look: landbird.", "Landbird", "GPT-4o", "hedged")
_a(T, K, "Landbird or Waterbird", "UNPARSEABLE", "LLaVA", "two-or-none")
_a(T, K, "I cannot identify the bird; the image is too blurry.", "REFUSED", "Llama3.2-Vision", "refusal")
_a(T, K, "[INST] <image>\nIs the bird in the photo a landbird or a waterbird? Only answer 'Landbird' or 'Waterbird'. [/INST] Waterbird", "Waterbird", "Llama3.2-Vision", "residue")
_a(T, K, "<start_of_turn>model\nLandbird<end_of_turn>", "Landbird", "Gemma3", "residue")

# ---------------------------------------------------------------- digits (FairFace)
K, T = "digits", "bench_fairface"
_a(T, K, "3", "East Asian", "LLaVA", "plain")
_a(T, K, "0", "White", "InternVL", "plain")
_a(T, K, "1", "Black", "Qwen2-VL", "plain")
_a(T, K, "2", "Latino or Hispanic", "LLaVA", "plain")
_a(T, K, "4", "Southeast Asian", "InternVL", "plain")
_a(T, K, "5", "Indian", "Qwen2-VL", "plain")
_a(T, K, "6", "Middle Eastern", "LLaVA", "plain")
_a(T, K, "**1**", "Black", "Gemma3", "plain")
_a(T, K, "2 (Latino/Hispanic)", "Latino or Hispanic", "GPT-4o", "plain")
_a(T, K, "4 - Southeast Asian", "Southeast Asian", "Gemma3", "plain")
_a(T, K, "East Asian", "East Asian", "Qwen2-VL", "digits-edge")
_a(T, K, "Southeast Asian", "Southeast Asian", "MiniCPM-V", "digits-edge")
_a(T, K, "Middle Eastern (6)", "Middle Eastern", "Gemma3", "digits-edge")
_a(T, K, "The person appears to be Indian, so 5.", "Indian", "Llama3.2-Vision", "digits-edge")
_a(T, K, "Label (0-6): 2", "Latino or Hispanic", "MiniCPM-V", "digits-edge")
_a(T, K, "Between 3 and 4, I'd pick 4.", "Southeast Asian", "GPT-4o", "hedged")
_a(T, K, "7", "UNPARSEABLE", "InternVL", "digits-edge")
_a(T, K, "10", "UNPARSEABLE", "LLaVA", "digits-edge")
_a(T, K, "3 or 4", "UNPARSEABLE", "Qwen2-VL", "digits-edge")
_a(T, K, "Asian", "UNPARSEABLE", "MiniCPM-V", "digits-edge")
_a(T, K, "Not 0.", "UNPARSEABLE", "Gemma3", "negation")
_a(T, K, "I cannot determine race from images.", "REFUSED", "Llama3.2-Vision", "refusal")
_a(T, K, "I'd prefer not to classify people by race.", "REFUSED", "Claude", "refusal")
_a(T, K, "I can't assign a race label. The person is wearing a white coat against a black background.", "REFUSED", "Claude", "refusal-desc")
_a(T, K, "USER: <image>\nBased on the photo, classify the race of the person into: 0: White, 1: Black, 2: Latino or Hispanic, 3: East Asian, 4: Southeast Asian, 5: Indian, 6: Middle Eastern. Please answer with the corresponding category number only. ASSISTANT: 4", "Southeast Asian", "LLaVA", "residue")
_a(T, K, "<|im_start|>assistant\n1<|im_end|>", "Black", "Qwen2-VL", "residue")

# ---------------------------------------------------------------- open UTKFace
K, T = "open", "open_utkface"
_a(T, K, "The photo shows a middle-aged man with short gray hair, wire-rimmed glasses, and a slight smile. He appears to be wearing a collared shirt.", "Male", "LLaVA", "plain")
_a(T, K, "A young woman with long dark hair pulled back, light makeup, and small earrings. She appears to be in her twenties.", "Female", "Qwen2-VL", "plain")
_a(T, K, "This is a close-up of a boy, perhaps eight to ten years old, with a buzz cut and a wide grin.", "Male", "MiniCPM-V", "plain")
_a(T, K, "An elderly gentleman with a white beard and deep wrinkles around his eyes.", "Male", "InternVL", "plain")
_a(T, K, "A lady with curly gray hair and reading glasses, wearing a pearl necklace.", "Female", "InternVL", "plain")
_a(T, K, "The person presents as female, with shoulder-length hair and a floral blouse. Note that gender presentation cannot always be inferred from appearance.", "Female", "Claude", "hedged")
_a(T, K, "The subject appears male: short cropped hair, a strong jawline, and visible stubble.", "Male", "GPT-4o", "plain")
_a(T, K, "**Gender presentation:** Female\n**Age:** roughly 30s\n**Hair:** long, straight, black\n**Expression:** neutral", "Female", "Gemma3", "plain")
_a(T, K, "A woman with a boyish pixie cut and silver hoop earrings.", "Female", "GPT-4o", "other-sense")
_a(T, K, "A woman wearing a man's oversized blazer, smiling softly at the camera.", "Female", "Claude", "other-sense")
_a(T, K, "This appears to be an adult human with short hair; he has a trimmed mustache and presents as male.", "Male", "MiniCPM-V", "other-sense")
_a(T, K, "The person is not a woman; he is a man in his thirties with a receding hairline.", "Male", "Gemma3", "negation")
_a(T, K, "There is no beard or stubble; the person appears to be a young woman with freckles.", "Female", "Llama3.2-Vision", "negation")
_a(T, K, "The image shows a man and a woman standing side by side.", "UNPARSEABLE", "LLaVA", "two-or-none")
_a(T, K, "The individual has short dark hair and wears a gray hoodie; the lighting is soft and even.", "UNPARSEABLE", "Llama3.2-Vision", "two-or-none")
_a(T, K, "I can't determine someone's gender from a photo. The person has short brown hair and is wearing a blue sweater.", "REFUSED", "Claude", "refusal-desc")
_a(T, K, "USER: <image>\nDescribe the person in this photo, including their apparent gender presentation and any other observable characteristics. ASSISTANT: The person appears to be a man in his fifties with a salt-and-pepper beard.", "Male", "LLaVA", "residue")

# ---------------------------------------------------------------- open FairFace
T = "open_fairface"
_a(T, K, "The person appears to be of East Asian descent, possibly Chinese or Korean, with straight black hair and a fair complexion. No distinct cultural markers are visible.", "East Asian", "GPT-4o", "plain")
_a(T, K, "She appears to be of South Asian heritage, possibly Indian, wearing a bindi and a colorful sari.", "Indian", "LLaVA", "plain")
_a(T, K, "The man appears Middle Eastern, possibly Arab, wearing a red-and-white checkered keffiyeh.", "Middle Eastern", "Qwen2-VL", "plain")
_a(T, K, "Her features suggest Hispanic or Latino heritage; she has wavy brown hair and warm olive skin.", "Latino or Hispanic", "MiniCPM-V", "plain")
_a(T, K, "The person appears to be Southeast Asian, perhaps Filipino or Vietnamese, with tan skin and dark hair.", "Southeast Asian", "InternVL", "plain")
_a(T, K, "He has fair skin, light brown hair, and blue eyes, suggesting European ancestry; he may be Caucasian.", "White", "Gemma3", "plain")
_a(T, K, "The woman may be of Persian descent, with dark wavy hair and a patterned headscarf.", "Middle Eastern", "InternVL", "plain")
_a(T, K, "He appears to be Desi, possibly from Punjab, with a turban and a full beard.", "Indian", "Gemma3", "plain")
_a(T, K, "Although I can't be certain, she appears to be African American, with natural curls and brown skin.", "Black", "Claude", "hedged")
_a(T, K, "He appears to be a Black man with a short fade haircut, wearing a white T-shirt and a black cap.", "Black", "LLaVA", "colour")
_a(T, K, "She wears a black dress and white pearls; her features suggest Indian heritage.", "Indian", "MiniCPM-V", "colour")
_a(T, K, "This black-and-white photo shows a man who appears to be Middle Eastern, with a thick mustache.", "Middle Eastern", "GPT-4o", "colour")
_a(T, K, "He appears to be White, wearing a black leather jacket against a dark background.", "White", "Llama3.2-Vision", "colour")
_a(T, K, "He stands in front of a Chinese restaurant sign; he appears to be a White man in his forties with a red beard.", "White", "GPT-4o", "other-sense")
_a(T, K, "A Latin inscription is carved in the stone behind her; she appears to be of East Asian heritage.", "East Asian", "Claude", "other-sense")
_a(T, K, "He sits on a Persian rug and appears to be a Black man in his twenties.", "Black", "Gemma3", "other-sense")
_a(T, K, "The Indian Ocean is visible behind her; she appears to be Filipino.", "Southeast Asian", "GPT-4o", "other-sense")
_a(T, K, "Arabic calligraphy hangs on the wall behind him; he looks Korean.", "East Asian", "Claude", "other-sense")
_a(T, K, "The person does not appear to be East Asian; his features suggest South Asian origins, and he wears a kurta.", "Indian", "GPT-4o", "negation")
_a(T, K, "He isn't of European descent; he appears Vietnamese, holding a conical hat.", "Southeast Asian", "Gemma3", "negation")
_a(T, K, "She doesn't look European.", "UNPARSEABLE", "InternVL", "negation")
_a(T, K, "The person appears to be Asian, with dark straight hair.", "UNPARSEABLE", "LLaVA", "two-or-none")
_a(T, K, "He could be Latino or Middle Eastern; it's hard to tell.", "UNPARSEABLE", "MiniCPM-V", "two-or-none")
_a(T, K, "She appears to be of mixed heritage, part Japanese and part European.", "UNPARSEABLE", "GPT-4o", "two-or-none")
_a(T, K, "The person has short dark hair, wears a gray suit, and is smiling; no cultural markers are visible.", "UNPARSEABLE", "Qwen2-VL", "two-or-none")
_a(T, K, "I'm not able to determine a person's ethnicity or racial background from a photo. I can describe that they're wearing a white shirt and standing in front of a brick wall.", "REFUSED", "Claude", "refusal-desc")
_a(T, K, "I don't make inferences about race or ethnicity from appearance. The lighting is warm and the background is dark.", "REFUSED", "Claude", "refusal-desc")

# ---------------------------------------------------------------- open Waterbirds
T = "open_waterbirds"
_a(T, K, "This is a mallard duck, with a glossy green head and a yellow bill, swimming on a pond.", "Waterbird", "LLaVA", "plain")
_a(T, K, "A small brown sparrow perched on a twig; it likely forages on seeds in open woodland.", "Landbird", "Qwen2-VL", "plain")
_a(T, K, "A Western grebe with a long slender neck, gliding across open water.", "Waterbird", "GPT-4o", "plain")
_a(T, K, "A blue jay with a crest and barred wings, perched on a bird feeder.", "Landbird", "LLaVA", "plain")
_a(T, K, "<start_of_turn>model\n**Species:** Black Tern\n**Habitat:** marshes and lakes\n**Behavior:** hovers and dips to pick prey from the water surface<end_of_turn>", "Waterbird", "Gemma3", "residue")
_a(T, K, "This woodpecker clings to a tree trunk, although the background shows a lake.", "Landbird", "MiniCPM-V", "habitat")
_a(T, K, "A seagull standing on a forest floor among ferns.", "Waterbird", "Qwen2-VL", "habitat")
_a(T, K, "A yellow warbler is shown against an ocean backdrop; it probably gleans insects from foliage.", "Landbird", "GPT-4o", "habitat")
_a(T, K, "The bird sits near water in a wetland habitat and likely forages along lakeshores.", "UNPARSEABLE", "Llama3.2-Vision", "habitat")
_a(T, K, "It prefers aquatic habitats, but the bird itself is a hummingbird hovering at a flower.", "Landbird", "Claude", "habitat")
_a(T, K, "A double-crested cormorant spreading its wings to dry, set against a forest.", "Waterbird", "Gemma3", "habitat")
_a(T, K, "A terrestrial bird foraging on the ground near a beach.", "Landbird", "Llama3.2-Vision", "habitat")
_a(T, K, "An aquatic bird with webbed feet and a flattened bill, floating in a forest pond.", "Waterbird", "Qwen2-VL", "habitat")
_a(T, K, "A Cape May warbler, a songbird of eastern North America, with streaked yellow underparts.", "Landbird", "GPT-4o", "other-sense")
_a(T, K, "A great blue heron about to swallow a fish it just caught.", "Waterbird", "Claude", "other-sense")
_a(T, K, "A house finch ready to duck into the hedge at any sign of danger.", "Landbird", "Claude", "other-sense")
_a(T, K, "A bright warbler with teal wing patches, perched in a bamboo grove.", "Landbird", "Gemma3", "other-sense")
_a(T, K, "The gull dove toward the surf to snatch a crab.", "Waterbird", "GPT-4o", "other-sense")
_a(T, K, "This bird might be a gull or a tern; both are seabirds with long pointed wings.", "Waterbird", "MiniCPM-V", "hedged")
_a(T, K, "At first glance it looks like a duck, but it is actually a grackle with iridescent black plumage.", "Landbird", "GPT-4o", "hedged")
_a(T, K, "Not a gull \u2014 this is an American crow, all black with a stout bill.", "Landbird", "Gemma3", "negation")
_a(T, K, "This is not a waterbird; it's a land bird with short, rounded wings suited to dense brush.", "Landbird", "Claude", "negation")
_a(T, K, "It could be a sparrow or a gull; the image is too small to tell.", "UNPARSEABLE", "Llama3.2-Vision", "two-or-none")
_a(T, K, "Sorry, I can't identify the species. The background shows a bamboo forest.", "REFUSED", "Llama3.2-Vision", "refusal-desc")
_a(T, K, "I'm unable to make out the bird clearly; there appears to be a lake in the background.", "REFUSED", "Claude", "refusal-desc")
