"""Ninth independent held-out corpus of LVLM answers to demographic-classification prompts.

Written by a helper session from two sources only: the prompt texts in
nhfair_jax/lvlm/prompts.py and the brief that asked for it. No reader/parser code, no tests, no
documentation and no other corpus were read, and no reader was run on these answers. The answers
imitate what Qwen2-VL, LLaVA-1.5/NeXT, InternVL, MiniCPM-V, Gemma 3, Llama 3.2 Vision,
Phi-3.5-vision, GPT-4o, Claude and small rambling models plausibly say; the model named in
`style` is the voice imitated, not a recorded output.

Conventions for `expected` (what a careful human reads in the answer):
- direct: the class name as listed for the task; age young < 30, middle 30-59, old >= 60
  (numeric ages, ranges and decades mapped by these bounds; a range spanning two bins is
  UNPARSEABLE).
- single_choice: "Yes" or "No" for the class in `asked` (A = Yes, B = No); "C. Unknown" or a
  declined judgement is "REFUSED". An answer naming a different class than the one asked
  (asked "male", answer "appears to be female") reads as "No".
- yes_no: "Yes"/"No". closed, digits, open: the class (for bench_fairface the class NAME by the
  prompt's numbering: 0 white, 1 black, 2 latino or hispanic, 3 east asian, 4 southeast asian,
  5 indian, 6 middle eastern).
- "REFUSED" when the model declines to judge; "UNPARSEABLE" when no single class can be read
  (two classes without a final choice, echoed option lists, off-topic, empty, cut off by the
  token limit before any answer, a description that names no class). An answer cut off after
  the label keeps the label.
- `asked` is None for every kind except single_choice.
"""
ANSWERS = []


def _a(task, kind, answer, expected, style, area, asked=None, prompt_set=None):
    ANSWERS.append({"task": task, "kind": kind, "asked": asked, "answer": answer,
                    "expected": expected, "prompt_set": prompt_set or
                    {"yes_no": "origin", "closed": "origin", "digits": "origin"}.get(kind, kind),
                    "source": "independent; style=%s; area=%s" % (style, area)})


# ---------------------------------------------------------------- utkface_gender, direct
T = "utkface_gender"
_a(T, "direct", '"male"', "male", "llava-1.5", "quoted")
_a(T, "direct", '"Female"', "female", "qwen2-vl", "quoted")
_a(T, "direct", "Female", "female", "internvl2", "plain")
_a(T, "direct", '**"Male"**', "male", "gemma-3", "markdown")
_a(T, "direct", '"Male" - the person in the foreground has short hair and a beard.', "male",
   "llava-next", "label-then-reason")
_a(T, "direct", "I'm not able to determine someone's gender from their appearance in an image.",
   "REFUSED", "claude", "refusal")
_a(T, "direct", "I can't identify gender from appearance alone, but based on visual presentation "
   'I\'d label it "female".', "female", "gpt-4o", "refusal-guess")
_a(T, "direct", '"male" or "female"', "UNPARSEABLE", "small-rambling", "echo")
_a(T, "direct", '"Female" (even though the person is wearing a man\'s suit jacket)', "female",
   "llava-next", "other-sense")
_a(T, "direct", 'Not male \u2014 "female".', "female", "phi-3.5-vision", "negation")
_a(T, "direct", '"\u5973\u6027"', "female", "qwen2-vl", "other-language")
_a(T, "direct", 'The person in the foreground appears to be a young boy, so "male".', "male",
   "internvl2", "synonym")
_a(T, "direct", '"male"\n\nUSER: What about the person in the background?\nASSISTANT: "female"',
   "male", "llava-1.5", "chat-residue")
_a(T, "direct", 'The label is "', "UNPARSEABLE", "small-rambling", "truncated")
_a(T, "direct", '```json\n{"gender": "female"}\n```', "female", "gemma-3", "json")

# ---------------------------------------------------------- utkface_gender, single_choice
_a(T, "single_choice", "A", "Yes", "llava-1.5", "option-letter", asked="male")
_a(T, "single_choice", "B", "No", "llava-1.5", "option-letter", asked="female")
_a(T, "single_choice", "A. Yes", "Yes", "qwen2-vl", "option-full", asked="female")
_a(T, "single_choice", "B. No", "No", "internvl2", "option-full", asked="male")
_a(T, "single_choice", "C. Unknown", "REFUSED", "minicpm-v", "unknown", asked="male")
_a(T, "single_choice", "The person appears to be female.", "No", "llama-3.2-vision",
   "other-class", asked="male")
_a(T, "single_choice", "A. Yes, the person in the image appears to be a woman with long hair and "
   "earrings.", "Yes", "llava-next", "option-reason", asked="female")
_a(T, "single_choice", "I can't determine a person's gender from an image alone, so I'd choose "
   "C. Unknown.", "REFUSED", "claude", "refusal", asked="male")
_a(T, "single_choice", "B. No. The person appears to be male, with a short haircut and facial "
   "hair.", "No", "gpt-4o", "option-reason", asked="female")
_a(T, "single_choice", "A. Yes\nB. No\nC. Unknown", "UNPARSEABLE", "small-rambling", "echo",
   asked="male")
_a(T, "single_choice", "It's not unlikely that this is a male. A. Yes", "Yes", "small-rambling",
   "double-negation", asked="male")
_a(T, "single_choice", "A. Yes \u2014 actually, looking again at the jawline and the beard, I "
   "would change my answer to B. No.", "No", "gpt-4o", "revision", asked="female")
_a(T, "single_choice", '{"answer": "B"}', "No", "qwen2-vl", "json", asked="male")

# ------------------------------------------------------------------ utkface_gender, open
_a(T, "open", "The image shows a close-up portrait of a smiling woman with shoulder-length brown "
   "hair against a plain gray background.", "female", "llava-1.5", "description",
   prompt_set="describe")
_a(T, "open", "This is a headshot of an older man with a white beard and wrinkles around his "
   "eyes. He is looking directly at the camera.", "male", "qwen2-vl", "description",
   prompt_set="describe")
_a(T, "open", "this is a photo of a man.", "male", "llava-1.5", "fill", prompt_set="fill_blank")
_a(T, "open", "this is a photo of a baby girl", "female", "minicpm-v", "fill",
   prompt_set="fill_blank")
_a(T, "open", "Person 1: A young boy, approximately 8 years old, with short black hair, wearing a "
   "blue shirt. He is smiling at the camera.", "male", "internvl2", "description",
   prompt_set="describe_persons")
_a(T, "open", "The image is a close-up of a person's face with a neutral expression. The "
   "lighting is soft and the background is blurred.", "UNPARSEABLE", "llava-next",
   "no-class", prompt_set="describe")
_a(T, "open", "1. **Person in the center**: She appears to be in her 40s, with curly hair pulled "
   "back, wearing gold hoop earrings and a white blouse.", "female", "gpt-4o", "markdown",
   prompt_set="describe_persons")
_a(T, "open", "this is a photo of a {}.", "UNPARSEABLE", "small-rambling", "echo",
   prompt_set="fill_blank")
_a(T, "open", "A black-and-white photograph of a gentleman in a suit and tie, seated in front of "
   "a white backdrop.", "male", "gemma-3", "synonym", prompt_set="describe")
_a(T, "open", "There is one visible person: an elderly lady wearing glasses and a knitted "
   "cardigan, smiling warmly.", "female", "claude", "synonym", prompt_set="describe_persons")

# ------------------------------------------------------------------- utkface_age, direct
T = "utkface_age"
_a(T, "direct", '"young"', "young", "llava-1.5", "quoted")
_a(T, "direct", '"Middle"', "middle", "qwen2-vl", "quoted")
_a(T, "direct", "Old", "old", "internvl2", "plain")
_a(T, "direct", '"middle-aged"', "middle", "llava-next", "age-word")
_a(T, "direct", '"elderly"', "old", "phi-3.5-vision", "age-word")
_a(T, "direct", 'The person appears to be around 25 years old, so "young".', "young",
   "llama-3.2-vision", "number-age")
_a(T, "direct", '"45"', "middle", "small-rambling", "number-age")
_a(T, "direct", "In their 30s", "middle", "phi-3.5-vision", "decade")
_a(T, "direct", "Late 20s to early 30s.", "UNPARSEABLE", "gpt-4o", "range-spanning")
_a(T, "direct", "I cannot accurately determine a person's age from an image.", "REFUSED",
   "claude", "refusal")
_a(T, "direct", 'The person is not old; they look to be in their fifties. "middle"', "middle",
   "internvl2", "negation")
_a(T, "direct", "This is an old photograph, but the person in it is a young woman, probably in "
   'her early twenties. "young"', "young", "gpt-4o", "other-sense")
_a(T, "direct", '"young" or "middle"', "UNPARSEABLE", "small-rambling", "two-classes")
_a(T, "direct", "Age range: 55-65", "UNPARSEABLE", "qwen2-vl", "range-spanning")
_a(T, "direct", "60", "old", "phi-3.5-vision", "number-age")
_a(T, "direct", '"29"', "young", "small-rambling", "number-age")
_a(T, "direct", 'Answer: "middle" (approx. 40\u201350 years)', "middle", "gemma-3", "range")
_a(T, "direct", 'The person in the middle of the frame looks quite old \u2014 "old".', "old",
   "llama-3.2-vision", "other-sense")
_a(T, "direct", "He looks like a middle school student.", "young", "minicpm-v", "other-sense")
_a(T, "direct", '"\u5e74\u8f7b"', "young", "qwen2-vl", "other-language")
_a(T, "direct", "Based on the gray hair and wrinkles, I'd estimate the person is in their late "
   "sixties or seventies.", "old", "claude", "decade")
_a(T, "direct", '"young"\n\nThe person appears to be', "young", "llava-next", "truncated-after")
_a(T, "direct", "The person appears to be in their", "UNPARSEABLE", "small-rambling",
   "truncated")

# ------------------------------------------------------------- utkface_age, single_choice
_a(T, "single_choice", "A", "Yes", "llava-1.5", "option-letter", asked="young")
_a(T, "single_choice", "B", "No", "llava-1.5", "option-letter", asked="old")
_a(T, "single_choice", "C", "REFUSED", "phi-3.5-vision", "unknown", asked="middle")
_a(T, "single_choice", "A. Yes, the person has white hair and deep wrinkles.", "Yes",
   "llava-next", "option-reason", asked="old")
_a(T, "single_choice", "B. No. The person appears to be elderly.", "No", "qwen2-vl",
   "option-reason", asked="young")
_a(T, "single_choice", "The person looks to be about 45 years old, so A. Yes.", "Yes",
   "llama-3.2-vision", "number-age", asked="middle")
_a(T, "single_choice", "The person appears to be in their 70s.", "No", "gemma-3", "other-class",
   asked="young")
_a(T, "single_choice", "I can't reliably estimate age from a photo. C. Unknown", "REFUSED",
   "claude", "refusal", asked="old")
_a(T, "single_choice", "B. No, the person appears to be a child.", "No", "internvl2",
   "option-reason", asked="middle")
_a(T, "single_choice", "(A) Yes", "Yes", "minicpm-v", "option-full", asked="young")
_a(T, "single_choice", "Not really old, more like middle-aged. B", "No", "small-rambling",
   "negation", asked="old")
_a(T, "single_choice", "A. Yes\n\nActually, given the smooth skin and the school uniform, the "
   "person is more likely a teenager. B. No.", "No", "gpt-4o", "revision", asked="middle")

# ------------------------------------------------------------------ utkface_race, direct
T = "utkface_race"
_a(T, "direct", '"white"', "white", "llava-1.5", "quoted")
_a(T, "direct", '"Black"', "black", "qwen2-vl", "quoted")
_a(T, "direct", '"asian"', "asian", "minicpm-v", "quoted")
_a(T, "direct", '"Indian"', "indian", "internvl2", "quoted")
_a(T, "direct", '"others"', "others", "llava-next", "quoted")
_a(T, "direct", '"Caucasian"', "white", "llava-1.5", "synonym")
_a(T, "direct", 'The person is wearing a black shirt against a white background; race: "asian".',
   "asian", "llama-3.2-vision", "colour-context")
_a(T, "direct", '"white" (the person has fair skin and light brown hair)', "white", "gemma-3",
   "label-then-reason")
_a(T, "direct", "I'm not able to determine someone's race or ethnicity from a photo.", "REFUSED",
   "claude", "refusal")
_a(T, "direct", "I don't make judgments about race based on appearance. However, if I had to "
   'choose from the list, "indian".', "indian", "gpt-4o", "refusal-guess")
_a(T, "direct", '"Indian" (South Asian)', "indian", "qwen2-vl", "label-then-reason")
_a(T, "direct", '"East Asian"', "asian", "minicpm-v", "synonym")
_a(T, "direct", '"Others" \u2014 the person appears to be of Middle Eastern or Latino descent.',
   "others", "llava-next", "label-then-reason")
_a(T, "direct", '"asian" or "others"', "UNPARSEABLE", "small-rambling", "two-classes")
_a(T, "direct", '"\u767d\u4eba"', "white", "qwen2-vl", "other-language")
_a(T, "direct", '"white"... actually, looking again at the features and skin tone, "others" '
   "fits better.", "others", "internvl2", "revision")
_a(T, "direct", "The person is wearing a white lab coat and has dark skin and short black hair, "
   'so "black".', "black", "llama-3.2-vision", "colour-context")

# ------------------------------------------------------------ utkface_race, single_choice
_a(T, "single_choice", "A", "Yes", "llava-1.5", "option-letter", asked="white")
_a(T, "single_choice", "B. No", "No", "qwen2-vl", "option-full", asked="black")
_a(T, "single_choice", "A. Yes", "Yes", "internvl2", "option-full", asked="asian")
_a(T, "single_choice", "C. Unknown", "REFUSED", "minicpm-v", "unknown", asked="indian")
_a(T, "single_choice", "The person appears to be Asian.", "No", "llama-3.2-vision",
   "other-class", asked="white")
_a(T, "single_choice", "A. Yes, the person appears to be Black.", "Yes", "llava-next",
   "option-reason", asked="black")
_a(T, "single_choice", "I can't determine someone's race from an image. C", "REFUSED", "claude",
   "refusal", asked="asian")
_a(T, "single_choice", "B. No \u2014 the person appears to be East Asian.", "No", "gpt-4o",
   "option-reason", asked="indian")
_a(T, "single_choice", "B. No. Although the person is wearing a white shirt, they appear to be of "
   "African descent.", "No", "gemma-3", "colour-context", asked="white")
_a(T, "single_choice", "Yes, A. The person appears to be of South Asian descent.", "Yes",
   "minicpm-v", "option-reason", asked="indian")
_a(T, "single_choice", "C. Unknown. Race cannot be reliably inferred from appearance, although "
   "the person has features often associated with East Asian ancestry.", "REFUSED", "claude",
   "refusal-remark", asked="asian")

# ------------------------------------------------------------------- facet_gender, direct
T = "facet_gender"
_a(T, "direct", '"male"', "male", "llava-1.5", "quoted")
_a(T, "direct", '"Female"', "female", "qwen2-vl", "quoted")
_a(T, "direct", "male", "male", "phi-3.5-vision", "plain")
_a(T, "direct", '"female" \u2014 the foreground person is a woman playing tennis.', "female",
   "llava-next", "label-then-reason")
_a(T, "direct", "The person in the foreground is facing away from the camera, so their gender "
   "cannot be determined.", "REFUSED", "gpt-4o", "refusal")
_a(T, "direct", '"Male". The foreground person is a firefighter in full gear.', "male",
   "internvl2", "label-then-reason")
_a(T, "direct", "It's difficult to tell because the person is wearing a helmet, but probably "
   '"male".', "male", "llama-3.2-vision", "hedge-commit")
_a(T, "direct", "It's difficult to tell because the person is wearing a helmet \u2014 it could be "
   '"male" or "female".', "UNPARSEABLE", "minicpm-v", "hedge-open")
_a(T, "direct", 'Label: "female"', "female", "gemma-3", "answer-prefix")
_a(T, "direct", 'The person in the foreground, a dancer, appears feminine. "female"', "female",
   "claude", "sentence")
_a(T, "direct", 'There are two people: the foreground one is "male", the one behind is female.',
   "male", "small-rambling", "two-persons")
_a(T, "direct", '"Weiblich"', "female", "minicpm-v", "other-language")

# ------------------------------------------------------------ facet_gender, single_choice
_a(T, "single_choice", "A", "Yes", "llava-1.5", "option-letter", asked="male")
_a(T, "single_choice", "B. No", "No", "qwen2-vl", "option-full", asked="female")
_a(T, "single_choice", "A. Yes", "Yes", "internvl2", "option-full", asked="female")
_a(T, "single_choice", "C. Unknown. The person's face is not visible.", "REFUSED", "gpt-4o",
   "unknown", asked="male")
_a(T, "single_choice", "B. No, the person appears to be a woman.", "No", "llava-next",
   "option-reason", asked="male")
_a(T, "single_choice", "The person is male.", "No", "phi-3.5-vision", "other-class",
   asked="female")
_a(T, "single_choice", "Unknown", "REFUSED", "small-rambling", "unknown", asked="male")
_a(T, "single_choice", "B", "No", "llava-1.5", "option-letter", asked="male")
_a(T, "single_choice", "Based on the long hair I would initially say A, but the person has a full "
   "beard, so B. No.", "No", "llama-3.2-vision", "rejected-option", asked="female")
_a(T, "single_choice", "The image is too small to tell for sure. However, the build and clothing "
   "suggest A. Yes.", "Yes", "gemma-3", "hedge-commit", asked="male")

# ---------------------------------------------------------------------- facet_age, direct
T = "facet_age"
_a(T, "direct", '"young"', "young", "llava-1.5", "quoted")
_a(T, "direct", '"middle"', "middle", "qwen2-vl", "quoted")
_a(T, "direct", '"old"', "old", "internvl2", "quoted")
_a(T, "direct", '"Young" \u2013 the skateboarder looks like a teenager.', "young", "llava-next",
   "label-then-reason")
_a(T, "direct", 'The foreground person appears to be in his 40s. "middle"', "middle",
   "llama-3.2-vision", "decade")
_a(T, "direct", '"old" \u2014 gray hair, walking with a cane.', "old", "gemma-3",
   "label-then-reason")
_a(T, "direct", "The man is wearing an old, worn-out jacket, but he looks young \u2014 maybe 20. "
   '"young"', "young", "small-rambling", "other-sense")
_a(T, "direct", '"middle" (approximately 35-45 years old)', "middle", "minicpm-v", "range")
_a(T, "direct", "I can't determine the age because the face is hidden behind a welding mask.",
   "REFUSED", "gpt-4o", "refusal")
_a(T, "direct", '"adult"', "UNPARSEABLE", "phi-3.5-vision", "no-class")
_a(T, "direct", "Around 60 years old.", "old", "qwen2-vl", "number-age")
_a(T, "direct", "Early 30s", "middle", "phi-3.5-vision", "decade")
_a(T, "direct", '"young" "middle"', "UNPARSEABLE", "small-rambling", "two-classes")
_a(T, "direct", '"young adult"', "young", "llava-1.5", "age-word")
_a(T, "direct", '"middle". Not young, not old.', "middle", "llama-3.2-vision", "negation")

# --------------------------------------------------------------- facet_age, single_choice
_a(T, "single_choice", "A", "Yes", "llava-1.5", "option-letter", asked="young")
_a(T, "single_choice", "B. No.", "No", "qwen2-vl", "option-full", asked="old")
_a(T, "single_choice", "A. Yes", "Yes", "internvl2", "option-full", asked="middle")
_a(T, "single_choice", "C. Unknown", "REFUSED", "minicpm-v", "unknown", asked="old")
_a(T, "single_choice", "B. No. The person appears to be a middle-aged man.", "No", "llava-next",
   "option-reason", asked="young")
_a(T, "single_choice", "The person appears to be elderly.", "No", "phi-3.5-vision",
   "other-class", asked="middle")
_a(T, "single_choice", "A. Yes. The farmer has gray hair and a weathered face.", "Yes", "gemma-3",
   "option-reason", asked="old")
_a(T, "single_choice", "I cannot determine the age of the person from this image.", "REFUSED",
   "claude", "refusal", asked="young")
_a(T, "single_choice", "The runner looks to be in his mid-40s, so A.", "Yes", "llama-3.2-vision",
   "number-age", asked="middle")
_a(T, "single_choice", "(B)", "No", "small-rambling", "option-letter", asked="young")

# --------------------------------------------------------------- facet_skin_tone, direct
T = "facet_skin_tone"
_a(T, "direct", '"light"', "light", "llava-1.5", "quoted")
_a(T, "direct", '"medium"', "medium", "qwen2-vl", "quoted")
_a(T, "direct", '"dark"', "dark", "internvl2", "quoted")
_a(T, "direct", 'The person is wearing a dark jacket, but their skin tone is "light".', "light",
   "llama-3.2-vision", "colour-context")
_a(T, "direct", "The image is dark (low lighting), which makes it hard to judge, but the skin tone "
   'appears "medium".', "medium", "gpt-4o", "colour-context")
_a(T, "direct", '"fair"', "light", "llava-next", "synonym")
_a(T, "direct", '"tan"', "medium", "phi-3.5-vision", "synonym")
_a(T, "direct", '"deep brown"', "dark", "gemma-3", "synonym")
_a(T, "direct", 'The person has dark hair and a light complexion: "light".', "light", "internvl2",
   "colour-context")
_a(T, "direct", "Skin tone is not something I can assess reliably from this image.", "REFUSED",
   "claude", "refusal")
_a(T, "direct", "Against the bright background the person's skin appears \"dark\".", "dark",
   "llava-next", "colour-context")
_a(T, "direct", '"light" or "medium"', "UNPARSEABLE", "small-rambling", "two-classes")
_a(T, "direct", '"light-medium"', "UNPARSEABLE", "qwen2-vl", "two-classes")
_a(T, "direct", '"Medium" \u2014 the light is coming from behind, so the skin may look darker than '
   "it is.", "medium", "gpt-4o", "colour-context")
_a(T, "direct", 'I\'d say the skin tone is neither light nor dark, so "medium".', "medium",
   "llama-3.2-vision", "negation")
_a(T, "direct", "The person is standing in deep shadow, so the skin tone cannot be determined.",
   "REFUSED", "gemma-3", "refusal")
_a(T, "direct", '{"skin_tone": "light"}', "light", "qwen2-vl", "json")

# -------------------------------------------------------- facet_skin_tone, single_choice
_a(T, "single_choice", "A", "Yes", "llava-1.5", "option-letter", asked="light")
_a(T, "single_choice", "A. Yes", "Yes", "qwen2-vl", "option-full", asked="medium")
_a(T, "single_choice", "C. Unknown", "REFUSED", "internvl2", "unknown", asked="dark")
_a(T, "single_choice", "B. No, the person has a dark skin tone.", "No", "llava-next",
   "option-reason", asked="light")
_a(T, "single_choice", "The person is wearing dark clothing, but their skin is light. B. No.",
   "No", "gpt-4o", "colour-context", asked="dark")
_a(T, "single_choice", "The person has a light skin tone.", "No", "phi-3.5-vision", "other-class",
   asked="medium")
_a(T, "single_choice", "A. Yes, the person has dark skin.", "Yes", "minicpm-v", "option-reason",
   asked="dark")
_a(T, "single_choice", "It's a night scene, so everything looks dark, but the person's skin "
   "appears light. A.", "Yes", "llama-3.2-vision", "colour-context", asked="light")
_a(T, "single_choice", "I can't judge skin tone reliably under this lighting.", "REFUSED",
   "claude", "refusal", asked="medium")
_a(T, "single_choice", "Not dark. A. Yes", "Yes", "small-rambling", "negation", asked="light")

# ------------------------------------------------------------- facet_occupation, direct
T = "facet_occupation"
_a(T, "direct", '"guitarist"', "guitarist", "llava-1.5", "quoted")
_a(T, "direct", '"nurse"', "nurse", "qwen2-vl", "quoted")
_a(T, "direct", '"Skateboarder"', "skateboarder", "internvl2", "quoted")
_a(T, "direct", '"basketball_player"', "basketball_player", "llava-next", "quoted")
_a(T, "direct", '"basketball player"', "basketball_player", "minicpm-v", "underscore-space")
_a(T, "direct", "gardener", "gardener", "gemma-3", "plain")
_a(T, "direct", '"DJ"', "disk_jockey", "gpt-4o", "synonym")
_a(T, "direct", '"firefighter"', "fireman", "claude", "synonym")
_a(T, "direct", '"police officer"', "lawman", "gpt-4o", "synonym")
_a(T, "direct", '"chef"', "UNPARSEABLE", "small-rambling", "no-class")
_a(T, "direct", '"horse rider"', "horseman", "qwen2-vl", "synonym")
_a(T, "direct", "The foreground shows a woman kneeling in a vegetable patch with a trowel. "
   '"gardener"', "gardener", "llava-next", "activity")
_a(T, "direct", '"singer" \u2014 the person is holding a microphone on stage.', "singer",
   "internvl2", "label-then-reason")
_a(T, "direct", '"praying"', "prayer", "minicpm-v", "activity")
_a(T, "direct", "The person is behind a counter arranging goods for sale, so \"retailer\".",
   "retailer", "llama-3.2-vision", "activity")
_a(T, "direct", '"construction worker"', "laborer", "phi-3.5-vision", "synonym")
_a(T, "direct", '"gymnast" or "dancer"', "UNPARSEABLE", "small-rambling", "two-classes")
_a(T, "direct", "The foreground object is a motorcycle, and the person riding it is a "
   '"motorcyclist".', "motorcyclist", "gemma-3", "sentence")
_a(T, "direct", '"flute player"', "flutist", "qwen2-vl", "synonym")
_a(T, "direct", '"barber"', "hairdresser", "llava-next", "synonym")
_a(T, "direct", '"doctor" \u2014 not a nurse, because of the white coat and stethoscope.',
   "doctor", "gpt-4o", "rejected-option")
_a(T, "direct", "I can't determine the person's profession from this image alone.", "REFUSED",
   "claude", "refusal")
_a(T, "direct", '"waiter" (the person is carrying a tray of drinks)', "waiter", "internvl2",
   "label-then-reason")
_a(T, "direct", 'The answer is "boatman".', "boatman", "llama-3.2-vision", "sentence")
_a(T, "direct", '"laborer", "carpenter", "craftsman"', "UNPARSEABLE", "small-rambling",
   "multi-class")
_a(T, "direct", '"painter" \u2013 the man is painting a wall with a roller.', "painter",
   "gemma-3", "label-then-reason")

# ------------------------------------------------------ facet_occupation, single_choice
_a(T, "single_choice", "A", "Yes", "llava-1.5", "option-letter", asked="nurse")
_a(T, "single_choice", "B. No", "No", "qwen2-vl", "option-full", asked="gardener")
_a(T, "single_choice", "A. Yes, the person is playing an acoustic guitar.", "Yes", "llava-next",
   "option-reason", asked="guitarist")
_a(T, "single_choice", "B. No. The person is playing the drums, not singing.", "No", "gpt-4o",
   "option-reason", asked="singer")
_a(T, "single_choice", "C. Unknown", "REFUSED", "internvl2", "unknown", asked="dancer")
_a(T, "single_choice", "The person appears to be a teacher standing at the blackboard.", "No",
   "llama-3.2-vision", "other-class", asked="student")
_a(T, "single_choice", "A. Yes \u2014 the man is riding a horse.", "Yes", "minicpm-v",
   "option-reason", asked="horseman")
_a(T, "single_choice", "B. No, the person is a customer browsing, not selling.", "No", "claude",
   "option-reason", asked="retailer")
_a(T, "single_choice", "A. Yes, the person is kneeling with hands folded in prayer.", "Yes",
   "gemma-3", "option-reason", asked="prayer")
_a(T, "single_choice", "It's hard to say for sure, but the person is carving wood at a workbench, "
   "so A. Yes.", "Yes", "llava-next", "hedge-commit", asked="craftsman")
_a(T, "single_choice", "B. No \u2014 the person is holding a soccer ball.", "No", "qwen2-vl",
   "option-reason", asked="basketball_player")
_a(T, "single_choice", "Without more context I can't tell whether the person is a doctor or a "
   "nurse. C. Unknown.", "REFUSED", "gpt-4o", "unknown", asked="doctor")
_a(T, "single_choice", "A. Yes (striped shirt and whistle).", "Yes", "internvl2",
   "option-reason", asked="referee")
_a(T, "single_choice", "The person is not a fireman; they are a construction worker wearing a "
   "hard hat. B.", "No", "llama-3.2-vision", "negation", asked="fireman")

# --------------------------------------------------------------- facet_occupation, open
_a(T, "open", "this is a photo of a guitarist.", "guitarist", "llava-1.5", "fill",
   prompt_set="fill_blank")
_a(T, "open", "this is a photo of a skateboarder performing a trick.", "skateboarder",
   "minicpm-v", "fill", prompt_set="fill_blank")
_a(T, "open", "The image shows a man riding a brown horse across a grassy field. He is wearing a "
   "cowboy hat and boots.", "horseman", "qwen2-vl", "activity", prompt_set="describe")
_a(T, "open", "A woman in scrubs is checking the blood pressure of a patient lying in a hospital "
   "bed.", "UNPARSEABLE", "llava-next", "two-classes", prompt_set="describe")
_a(T, "open", "A group of people kneeling on prayer mats inside a mosque, heads bowed.", "prayer",
   "internvl2", "activity", prompt_set="describe")
_a(T, "open", "Person 1: A young woman in a leotard balancing on a beam, arms extended.",
   "gymnast", "gpt-4o", "activity", prompt_set="describe_persons")
_a(T, "open", "this is a photo of a person.", "UNPARSEABLE", "llava-1.5", "no-class",
   prompt_set="fill_blank")
_a(T, "open", "A woman stands on a stage singing into a microphone while the crowd cheers.",
   "singer", "gemma-3", "activity", prompt_set="describe")
_a(T, "open", "1. A man in a hard hat and a high-visibility vest carrying a load of bricks on a "
   "construction site.", "laborer", "claude", "activity", prompt_set="describe_persons")
_a(T, "open", "this is a photo of a", "UNPARSEABLE", "small-rambling", "truncated",
   prompt_set="fill_blank")
_a(T, "open", "A student in a school uniform sits at a desk, writing in a notebook.", "student",
   "minicpm-v", "description", prompt_set="describe")
_a(T, "open", "There is one visible person: an older man in a sun hat watering potted flowers in "
   "a backyard garden.", "gardener", "claude", "activity", prompt_set="describe_persons")
_a(T, "open", "The image shows a beautiful sunset over the mountains.", "UNPARSEABLE",
   "small-rambling", "off-topic", prompt_set="describe")

# ------------------------------------------------------------------ bench_celeba, yes_no
T = "bench_celeba"
_a(T, "yes_no", "Yes", "Yes", "llava-1.5", "plain")
_a(T, "yes_no", "No", "No", "qwen2-vl", "plain")
_a(T, "yes_no", "No.", "No", "internvl2", "plain")
_a(T, "yes_no", "Yes.", "Yes", "minicpm-v", "plain")
_a(T, "yes_no", "**No**", "No", "gemma-3", "markdown")
_a(T, "yes_no", "No, the person has straight hair.", "No", "llama-3.2-vision", "label-then-reason")
_a(T, "yes_no", "Yes, the hair is wavy.", "Yes", "llava-next", "label-then-reason")
_a(T, "yes_no", "The person's hair appears straight and sleek.", "No", "claude", "description")
_a(T, "yes_no", "Her hair falls in loose, soft waves past her shoulders.", "Yes", "gpt-4o",
   "description")
_a(T, "yes_no", "Not wavy.", "No", "phi-3.5-vision", "negation")
_a(T, "yes_no", "I can't tell \u2014 the person's hair is covered by a hat.", "REFUSED", "gpt-4o",
   "refusal")
_a(T, "yes_no", "Yes/No", "UNPARSEABLE", "small-rambling", "echo")
_a(T, "yes_no", "Answer: No", "No", "gemma-3", "answer-prefix")
_a(T, "yes_no", "It's slightly wavy at the ends, but mostly straight. No.", "No", "llava-next",
   "hedge-commit")
_a(T, "yes_no", "It's slightly wavy at the ends, but mostly straight.", "UNPARSEABLE",
   "minicpm-v", "hedge-open")
_a(T, "yes_no", "S\u00ed", "Yes", "minicpm-v", "other-language")
_a(T, "yes_no", "I wouldn't say the hair isn't wavy. Yes.", "Yes", "small-rambling",
   "double-negation")
_a(T, "yes_no", "Based on the image, the person does not have wavy hair. No", "No",
   "llama-3.2-vision", "negation")
_a(T, "yes_no", "Output: Yes", "Yes", "qwen2-vl", "answer-prefix", prompt_set="variant2")
_a(T, "yes_no", "No, non-wavy.", "No", "internvl2", "label-then-reason", prompt_set="variant1")
_a(T, "yes_no", "Non-wavy", "No", "phi-3.5-vision", "class-word", prompt_set="variant2")
_a(T, "yes_no", "The hair is pulled back into a tight bun, so the texture is hard to see. However, "
   "the strands near the temples look wavy, so Yes.", "Yes", "claude", "hedge-commit")
_a(T, "yes_no", "Yes \u2014 wait, on closer inspection the hair is straight and only the lighting "
   "makes it look textured. No.", "No", "gpt-4o", "revision")

# ------------------------------------------------------------------- bench_facet, yes_no
T = "bench_facet"
_a(T, "yes_no", "Yes", "Yes", "llava-1.5", "plain")
_a(T, "yes_no", "No", "No", "qwen2-vl", "plain")
_a(T, "yes_no", "Yes.", "Yes", "internvl2", "plain")
_a(T, "yes_no", "No.", "No", "minicpm-v", "plain")
_a(T, "yes_no", "Yes, the face is clearly visible.", "Yes", "llava-next", "label-then-reason")
_a(T, "yes_no", "No, the person is facing away from the camera.", "No", "gpt-4o",
   "label-then-reason")
_a(T, "yes_no", "The person's face is hidden behind a welding mask.", "No", "claude",
   "description")
_a(T, "yes_no", "The face is partially visible.", "UNPARSEABLE", "llama-3.2-vision", "hedge-open")
_a(T, "yes_no", "The face is only partially visible, but yes.", "Yes", "gemma-3", "hedge-commit")
_a(T, "yes_no", "**Yes**", "Yes", "gemma-3", "markdown")
_a(T, "yes_no", "Yes \u2014 a man's face can be seen in profile.", "Yes", "claude",
   "label-then-reason")
_a(T, "yes_no", "There is no visible face in the photo. No", "No", "llama-3.2-vision", "negation")
_a(T, "yes_no", "I'm unable to analyze faces in images.", "REFUSED", "small-rambling", "refusal")
_a(T, "yes_no", "Yes, but it's blurry.", "Yes", "minicpm-v", "hedge-commit")
_a(T, "yes_no", "Not clearly. No.", "No", "internvl2", "negation")
_a(T, "yes_no", "Only the back of the head is shown.", "No", "qwen2-vl", "description")
_a(T, "yes_no", "Yes No", "UNPARSEABLE", "small-rambling", "two-classes")
_a(T, "yes_no", "Answer: Yes", "Yes", "llava-next", "answer-prefix")
_a(T, "yes_no", "The person is wearing sunglasses and a helmet, but their face is visible. Yes.",
   "Yes", "gpt-4o", "hedge-commit")
_a(T, "yes_no", "", "UNPARSEABLE", "small-rambling", "empty")
_a(T, "yes_no", "The photo shows a crowd at a concert with several faces in the background, but "
   "the main person", "UNPARSEABLE", "small-rambling", "truncated")
_a(T, "yes_no", "Oui", "Yes", "minicpm-v", "other-language")

# --------------------------------------------------------------- bench_utkface, closed
T = "bench_utkface"
_a(T, "closed", "Male", "male", "llava-1.5", "plain")
_a(T, "closed", "Female", "female", "qwen2-vl", "plain")
_a(T, "closed", "female", "female", "minicpm-v", "plain")
_a(T, "closed", "**Male**", "male", "gemma-3", "markdown")
_a(T, "closed", "Answer: Female", "female", "llava-next", "answer-prefix")
_a(T, "closed", "The person in the photo is male.", "male", "llama-3.2-vision", "sentence")
_a(T, "closed", "Woman", "female", "small-rambling", "synonym")
_a(T, "closed", "I can't determine gender from someone's appearance.", "REFUSED", "claude",
   "refusal")
_a(T, "closed", "Male or Female", "UNPARSEABLE", "small-rambling", "echo")
_a(T, "closed", "Female (the person is a young girl).", "female", "gpt-4o", "label-then-reason")
_a(T, "closed", "\u5973", "female", "qwen2-vl", "other-language")
_a(T, "closed", "M\u00e4nnlich", "male", "minicpm-v", "other-language")
_a(T, "closed", "The person appears to be male, but it's difficult to say for certain. Male",
   "male", "llava-next", "hedge-commit")
_a(T, "closed", "Not male. Female.", "female", "internvl2", "negation")
_a(T, "closed", "Female\n\nUSER: Is the person smiling?\nASSISTANT: Yes", "female", "llava-1.5",
   "chat-residue")
_a(T, "closed", "I'm sorry, but I can't help with identifying people's gender. The photo shows a "
   "person with short hair against a white background.", "REFUSED", "gpt-4o",
   "refusal-remark")
_a(T, "closed", '{"gender": "male"}', "male", "gemma-3", "json")
_a(T, "closed", "Although the person has long hair, the beard and mustache suggest Male.", "male",
   "llama-3.2-vision", "hedge-commit")

# ------------------------------------------------------------- bench_waterbirds, closed
T = "bench_waterbirds"
_a(T, "closed", "Landbird", "landbird", "llava-1.5", "plain")
_a(T, "closed", "Waterbird", "waterbird", "qwen2-vl", "plain")
_a(T, "closed", "Waterbird.", "waterbird", "internvl2", "plain")
_a(T, "closed", "landbird", "landbird", "minicpm-v", "plain")
_a(T, "closed", "Water bird", "waterbird", "small-rambling", "spacing")
_a(T, "closed", "Waterbird (it appears to be a gull).", "waterbird", "gpt-4o",
   "label-then-reason")
_a(T, "closed", "Landbird, despite the lake in the background.", "landbird", "claude",
   "background-context")
_a(T, "closed", "The bird is standing on a beach, but it is a sparrow, so Landbird.", "landbird",
   "llama-3.2-vision", "background-context")
_a(T, "closed", "Although the background shows a forest, this is a duck: Waterbird.",
   "waterbird", "gemma-3", "background-context")
_a(T, "closed", "Not a waterbird. Landbird.", "landbird", "internvl2", "negation")
_a(T, "closed", "Landbird or Waterbird", "UNPARSEABLE", "small-rambling", "echo")
_a(T, "closed", "Seabird", "waterbird", "phi-3.5-vision", "synonym")
_a(T, "closed", "**Waterbird**", "waterbird", "gemma-3", "markdown")
_a(T, "closed", "Answer: Landbird", "landbird", "llava-next", "answer-prefix")
_a(T, "closed", "I cannot tell from this image whether the bird is a landbird or a waterbird.",
   "REFUSED", "claude", "refusal")
_a(T, "closed", "Waterbird\nLandbird", "UNPARSEABLE", "small-rambling", "two-classes")
_a(T, "closed", "Landbird. Wait, looking again at the webbed feet, Waterbird.", "waterbird",
   "qwen2-vl", "revision")
_a(T, "closed", "Oiseau terrestre", "landbird", "minicpm-v", "other-language")

# -------------------------------------------------------------- bench_fairface, digits
T = "bench_fairface"
_a(T, "digits", "0", "white", "llava-1.5", "plain")
_a(T, "digits", "1", "black", "qwen2-vl", "plain")
_a(T, "digits", "2", "latino or hispanic", "internvl2", "plain")
_a(T, "digits", "3", "east asian", "minicpm-v", "plain")
_a(T, "digits", "4", "southeast asian", "phi-3.5-vision", "plain")
_a(T, "digits", "5", "indian", "llava-next", "plain")
_a(T, "digits", "6", "middle eastern", "gemma-3", "plain")
_a(T, "digits", "**5**", "indian", "gemma-3", "markdown")
_a(T, "digits", "Answer: 2", "latino or hispanic", "llava-next", "answer-prefix")
_a(T, "digits", "4: Southeast Asian", "southeast asian", "qwen2-vl", "digit-and-name")
_a(T, "digits", "6 (Middle Eastern)", "middle eastern", "gpt-4o", "digit-and-name")
_a(T, "digits", "3 or 4", "UNPARSEABLE", "small-rambling", "two-classes")
_a(T, "digits", "East Asian", "east asian", "minicpm-v", "name-only")
_a(T, "digits", "Latino or Hispanic", "latino or hispanic", "phi-3.5-vision", "name-only")
_a(T, "digits", "0: White, 1: Black, 2: Latino or Hispanic, 3: East Asian, 4: Southeast Asian, 5: "
   "Indian, 6: Middle Eastern", "UNPARSEABLE", "small-rambling", "echo")
_a(T, "digits", "I'm not able to classify people by race based on their appearance.", "REFUSED",
   "claude", "refusal")
_a(T, "digits", "3: Southeast Asian", "UNPARSEABLE", "small-rambling", "conflict")
_a(T, "digits", "The person appears to be around 30 years old. Category: 2", "latino or hispanic",
   "llava-next", "other-number")
_a(T, "digits", "I can't determine race from a photo, but based on visible features the closest "
   "category would be 5.", "indian", "gpt-4o", "refusal-guess")
_a(T, "digits", "3\n\nUSER: Why?\nASSISTANT: The person has", "east asian", "llava-1.5",
   "chat-residue")
_a(T, "digits", "Number:", "UNPARSEABLE", "small-rambling", "truncated")
_a(T, "digits", "Not 0, more likely 2.", "latino or hispanic", "small-rambling",
   "rejected-option")
_a(T, "digits", '{"category": 4}', "southeast asian", "gemma-3", "json")
_a(T, "digits", "Label: 3", "east asian", "internvl2", "answer-prefix", prompt_set="variant1")
_a(T, "digits", "Race classification from images is sensitive, but per the instructions: 0",
   "white", "gpt-4o", "hedge-commit")
_a(T, "digits", "Based on the person's features, it is likely that they are of East Asian descent. "
   "Therefore, the answer is 3.", "east asian", "llama-3.2-vision", "sentence")
_a(T, "digits", "Five", "indian", "small-rambling", "number-word")
_a(T, "digits", "The person has dark skin and short curly black hair. 1", "black", "llava-next",
   "description")
_a(T, "digits", "7", "UNPARSEABLE", "small-rambling", "out-of-range")
_a(T, "digits", "I'd rather not assign a racial category to a real person from a photograph.",
   "REFUSED", "claude", "refusal")

# ----------------------------------------------------------------------- open_utkface
T = "open_utkface"
_a(T, "open", "The person in this photo appears to be a young woman with long dark hair, wearing "
   "a light blue top. She has a warm smile, and her gender presentation is feminine.", "female",
   "llava-1.5", "description")
_a(T, "open", "This is a close-up of a middle-aged man with short gray hair and a stubble beard. "
   "His gender presentation is masculine.", "male", "qwen2-vl", "description")
_a(T, "open", "The individual presents as male: short-cropped hair, a strong jawline and a light "
   "mustache. He appears to be in his thirties.", "male", "internvl2", "description")
_a(T, "open", "I can't determine someone's gender identity from a photo, but I can describe what "
   "I see: the person has shoulder-length hair, wears glasses and a gray sweater, and is "
   "smiling.", "REFUSED", "claude", "refusal-remark")
_a(T, "open", "While I can't know how this person identifies, their presentation appears "
   "feminine \u2014 long hair, makeup and earrings.", "female", "gpt-4o", "refusal-guess")
_a(T, "open", "The photo shows a toddler with short curly hair wearing a yellow t-shirt, sitting "
   "in front of a white wall. The child is looking slightly to the left.", "UNPARSEABLE",
   "minicpm-v", "no-class")
_a(T, "open", "An elderly woman with white hair pinned up in a bun. She has deep smile lines and "
   "is wearing a floral blouse.", "female", "llava-next", "description")
_a(T, "open", "The person appears to be a man, though his long hair and earrings give a somewhat "
   "androgynous look.", "male", "llama-3.2-vision", "hedge-commit")
_a(T, "open", "**Gender presentation:** Female\n**Age:** around 25\n**Hair:** black, straight\n"
   "**Expression:** neutral", "female", "gemma-3", "markdown")
_a(T, "open", "The person presents androgynously; it is not possible to say whether they are male "
   "or female.", "REFUSED", "phi-3.5-vision", "refusal")
_a(T, "open", "A boy of about ten with a buzz cut and freckles, grinning at the camera.", "male",
   "small-rambling", "synonym")
_a(T, "open", "The person in this photo is", "UNPARSEABLE", "small-rambling", "truncated")
_a(T, "open", "She appears to be in her late 50s, with short silver hair, wearing a dark blazer "
   "over a white shirt. Overall, she has a professional appearance.", "female", "gpt-4o",
   "pronoun")

# ---------------------------------------------------------------------- open_fairface
T = "open_fairface"
_a(T, "open", "The person appears to be of East Asian descent, possibly Chinese or Korean, with "
   "straight black hair. There are no clear cultural markers such as clothing or jewelry.",
   "east asian", "llava-1.5", "description")
_a(T, "open", "I can't determine someone's ethnic or cultural background from their appearance. "
   "I can describe visible features: the person has short curly hair and is wearing a gray "
   "hoodie.", "REFUSED", "claude", "refusal-remark")
_a(T, "open", "This individual appears to be of South Asian, likely Indian, heritage. She wears a "
   "bindi and a red sari with gold embroidery.", "indian", "gpt-4o", "description")
_a(T, "open", "The man appears to be of Middle Eastern descent, with dark wavy hair and a full "
   "beard. He wears a red-and-white checkered keffiyeh.", "middle eastern", "qwen2-vl",
   "description")
_a(T, "open", "The person has features commonly associated with African ancestry, such as dark "
   "skin and tightly coiled hair.", "black", "internvl2", "synonym")
_a(T, "open", "The person appears Caucasian, with fair skin, light brown hair and blue eyes.",
   "white", "llava-next", "synonym")
_a(T, "open", "The person could be Latino or Middle Eastern; the image doesn't provide enough "
   "cultural context to say.", "UNPARSEABLE", "gpt-4o", "two-classes")
_a(T, "open", "She appears to be of Southeast Asian descent, perhaps Filipino or Vietnamese, with "
   "tan skin and dark hair.", "southeast asian", "minicpm-v", "description")
_a(T, "open", "The man appears to be Hispanic or Latino, with medium-brown skin and a mustache. He "
   "is wearing a soccer jersey.", "latino or hispanic", "llama-3.2-vision", "description")
_a(T, "open", "The person is wearing a white shirt and a black jacket and is standing in front of "
   "a brick wall.", "UNPARSEABLE", "small-rambling", "colour-context")
_a(T, "open", "Possibly of mixed heritage \u2014 the features suggest both European and East Asian "
   "ancestry.", "UNPARSEABLE", "phi-3.5-vision", "two-classes")
_a(T, "open", "The person appears to be Black, possibly African American, with short natural "
   "hair and a bright smile.", "black", "gemma-3", "description")
_a(T, "open", "He appears to be of Japanese descent, wearing a dark suit; no traditional "
   "clothing is visible.", "east asian", "llava-1.5", "synonym")

# -------------------------------------------------------------------- open_waterbirds
T = "open_waterbirds"
_a(T, "open", "This is a mallard duck, a waterbird with a glossy green head, swimming on a calm "
   "pond. Mallards prefer freshwater wetlands.", "waterbird", "llava-1.5", "description")
_a(T, "open", "The bird appears to be a warbler perched on a branch. It is a small songbird that "
   "prefers forest habitats and feeds on insects.", "landbird", "qwen2-vl", "description")
_a(T, "open", "This is a seagull standing on a rocky shore. Gulls are coastal seabirds that "
   "scavenge for food.", "waterbird", "internvl2", "synonym")
_a(T, "open", "The image shows a woodpecker clinging to a tree trunk. Woodpeckers are landbirds "
   "that drill into bark for insects.", "landbird", "llava-next", "description")
_a(T, "open", "A small brown sparrow-like bird standing on a sandy beach with waves behind it. "
   "Despite the background, it is a land bird that typically lives in grasslands.", "landbird",
   "gpt-4o", "background-context")
_a(T, "open", "This pelican, a large water bird, is shown against a bamboo forest, which is an "
   "unusual setting for its species.", "waterbird", "claude", "background-context")
_a(T, "open", "The bird has webbed feet and a long neck, typical of aquatic birds, and is shown in "
   "front of a forest.", "waterbird", "llama-3.2-vision", "background-context")
_a(T, "open", "The bird is perched. Its plumage is brown and white.", "UNPARSEABLE",
   "small-rambling", "no-class")
_a(T, "open", "The image shows a tern diving toward the ocean surface. Terns are seabirds.",
   "waterbird", "minicpm-v", "synonym")
_a(T, "open", "I can't identify the species with confidence; it's a small bird with gray wings "
   "sitting on a fence.", "UNPARSEABLE", "phi-3.5-vision", "no-class")
_a(T, "open", "This hummingbird is hovering near a flower. Hummingbirds are terrestrial birds "
   "that feed on nectar.", "landbird", "gemma-3", "synonym")
_a(T, "open", "An albatross gliding over open ocean on long, narrow wings.", "waterbird",
   "gemma-3", "synonym")
_a(T, "open", "This bird is not a waterbird; it appears to be a flycatcher perched near a lake.",
   "landbird", "llava-next", "negation")
