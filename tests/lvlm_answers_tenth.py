"""Tenth independent held-out corpus of LVLM answers to demographic-classification prompts.

Written by a helper session from two sources only: the prompt texts in
nhfair_jax/lvlm/prompts.py and the brief that asked for it. No reader/parser code, no tests, no
documentation and no other corpus were read, and no reader was run on these answers. The voices
imitated are Qwen2-VL, LLaVA-1.5 and LLaVA-NeXT, InternVL, MiniCPM-V, Gemma 3, Llama 3.2 Vision,
Phi-3.5-vision, GPT-4o, Claude, Pixtral, Molmo and small rambling models (long, repetitive,
sometimes cut off or running on into a fake next chat turn).

prompts.py lists only the FACET person classes; the other class names used here are assumed from
the brief: utkface_gender / facet_gender male, female; utkface_age / facet_age young, middle, old;
utkface_race white, black, asian, indian, others; facet_skin_tone light, medium, dark;
facet_occupation the FACET class names as written in prompts.py (e.g. "soccer_player").

Conventions for `expected` (what a careful human reads in the answer):
- direct: the class name as listed for the task; age young < 30, middle 30-59, old >= 60
  (numeric ages, ranges and decades mapped by these bounds; a range spanning two bins is
  "UNPARSEABLE").
- single_choice: "Yes" or "No" for the class in `asked` (A = Yes, B = No); "C. Unknown" or a
  declined judgement is "REFUSED". An answer naming a different class than the one asked (asked
  "male", answer "appears to be female") reads as "No". `asked` is the class name asked about,
  and is None for every other kind.
- yes_no: "Yes"/"No". closed, digits, open: the class (for bench_fairface the class NAME by the
  prompt's numbering, lowercase as listed in the prompt: white, black, latino or hispanic,
  east asian, southeast asian, indian, middle eastern).
- "REFUSED" when the model declines to judge; "UNPARSEABLE" when no single class can be read
  (two classes without a final choice, echoed option lists, off-topic, empty, cut off by the
  token limit before any answer, a description that names no class). An answer cut off after
  the label keeps the label. A refusal that goes on to guess anyway counts as the guess.
"""
ANSWERS = []


def _a(task, kind, answer, expected, style, area, asked=None, prompt_set=None):
    ANSWERS.append({"task": task, "kind": kind, "asked": asked, "answer": answer,
                    "expected": expected, "prompt_set": prompt_set or
                    {"yes_no": "origin", "closed": "origin", "digits": "origin"}.get(kind, kind),
                    "source": "independent; style=%s; area=%s" % (style, area)})


U = "UNPARSEABLE"
R = "REFUSED"

# ---- utkface_gender, direct
T = "utkface_gender"
_a(T, "direct", '"male"', "male", "llava-1.5", "quoted")
_a(T, "direct", '"Female"', "female", "qwen2-vl", "quoted-capitalised")
_a(T, "direct", "Male.", "male", "gemma3", "bare-trailing-punct")
_a(T, "direct", "**Female**", "female", "gpt-4o", "markdown-bold")
_a(T, "direct", '{"label": "male"}', "male", "minicpm-v", "json")
_a(T, "direct", '```\n"female"\n```', "female", "phi-3.5-vision", "code-fence")
_a(T, "direct", '"woman"', "female", "molmo", "synonym")
_a(T, "direct", "The foreground person has short cropped hair and a full beard, so the label "
   'is "male".', "male", "llama3.2-vision", "reasons-then-label")
_a(T, "direct", '"female" - she has long hair pulled back, small hoop earrings and lipstick.',
   "female", "internvl", "label-then-reasons")
_a(T, "direct", "I can't determine someone's gender from their appearance alone, so I won't "
   "assign a label here.", R, "claude", "refusal")
_a(T, "direct", "I'm not able to know how someone identifies, but based purely on visual "
   'presentation I would pick "male".', "male", "gpt-4o", "refusal-then-guess")
_a(T, "direct", '"male", "female"', U, "small-rambling", "echo-options")
_a(T, "direct", 'Label: "Female"\nUSER: Now give me a label for the age.\nASSISTANT: "young"',
   "female", "llava-1.5", "chat-residue")
_a(T, "direct", '"女"', "female", "qwen2-vl", "chinese")
_a(T, "direct", 'Not "female" - the short hair is misleading at first, but this is a man: '
   '"male"', "male", "pixtral", "rejected-then-chosen")
_a(T, "direct", "Based on the image, the foreground person's gender appears to be determined "
   "by looking at several features, such as the", U, "small-rambling", "truncated-before-label")

# ---- utkface_gender, single_choice
_a(T, "single_choice", "A", "Yes", "llava-1.5", "letter", asked="male")
_a(T, "single_choice", "B. No", "No", "internvl", "letter-option", asked="female")
_a(T, "single_choice", "C. Unknown", R, "minicpm-v", "unknown", asked="male")
_a(T, "single_choice", "A. Yes", "Yes", "qwen2-vl", "letter-option", asked="female")
_a(T, "single_choice", "The person in the image appears to be female.", "No", "gemma3",
   "other-class", asked="male")
_a(T, "single_choice", "The person in the image appears to be a man with a goatee, so A. Yes.",
   "Yes", "llama3.2-vision", "reasons-then-letter", asked="male")
_a(T, "single_choice", "B", "No", "llava-next", "letter", asked="male")
_a(T, "single_choice", "Yes, the person appears to be a woman.", "Yes", "phi-3.5-vision",
   "yes-word", asked="female")
_a(T, "single_choice", "I cannot determine a person's gender from an image. C. Unknown", R,
   "claude", "refusal-unknown", asked="female")
_a(T, "single_choice", "A. Yes\n\nThe person has a beard and short hair, features commonly "
   "associated with men.", "Yes", "gpt-4o", "letter-then-reasons", asked="male")
_a(T, "single_choice", "No. The individual looks like a young boy.", "No", "molmo",
   "no-word-other-class", asked="female")
_a(T, "single_choice", "It is difficult to say for sure, but I would lean towards B. No - the "
   "person looks more like a woman.", "No", "pixtral", "hedge-lean", asked="male")
_a(T, "single_choice", "**Answer: A**", "Yes", "gpt-4o", "markdown", asked="female")
_a(T, "single_choice", "A. Yes, B. No, C. Unknown", U, "small-rambling", "echo-options",
   asked="male")
_a(T, "single_choice", "Sí, es una mujer. A", "Yes", "qwen2-vl", "spanish", asked="female")

# ---- utkface_gender, open
_a(T, "open", "this is a photo of a man.", "male", "llava-1.5", "fill-sentence",
   prompt_set="fill_blank")
_a(T, "open", "woman", "female", "minicpm-v", "fill-word", prompt_set="fill_blank")
_a(T, "open", "This is a photo of a smiling girl with pigtails and a yellow bow.", "female",
   "gemma3", "fill-girl", prompt_set="fill_blank")
_a(T, "open", "face", U, "internvl", "fill-no-class", prompt_set="fill_blank")
_a(T, "open", "This is a photo of a young boy.", "male", "molmo", "fill-boy",
   prompt_set="fill_blank")
_a(T, "open", "The image shows a close-up portrait of an elderly man with white hair and a "
   "wrinkled face. He is wearing a dark blue shirt and looking directly at the camera.",
   "male", "llava-next", "describe-man", prompt_set="describe")
_a(T, "open", "This is a headshot of a woman with shoulder-length brown hair, smiling softly. "
   "The background is plain white.", "female", "qwen2-vl", "describe-woman",
   prompt_set="describe")
_a(T, "open", "The image is a tightly cropped face photo. The person has short dark hair and "
   "no visible facial hair. The lighting is even and the background is grey.", U,
   "phi-3.5-vision", "describe-no-class", prompt_set="describe")
_a(T, "open", "1. **Person 1**: A middle-aged gentleman with a graying mustache, wearing "
   "wire-rimmed glasses and a collared shirt. He has a calm, neutral expression.", "male",
   "gpt-4o", "persons-gentleman", prompt_set="describe_persons")
_a(T, "open", "There is one visible person: a lady in her thirties wearing a red headscarf and "
   "gold earrings, with a warm smile.", "female", "llama3.2-vision", "persons-lady",
   prompt_set="describe_persons")
_a(T, "open", "A baby girl in a pink onesie sits on a blanket, reaching toward the camera with "
   "one hand.", "female", "pixtral", "describe-baby-girl", prompt_set="describe")
_a(T, "open", "Person: adult, appears to be male, though he has long hair tied back and wears a "
   "pearl earring.", "male", "claude", "persons-counter-cues", prompt_set="describe_persons")
_a(T, "open", "At first glance the person looks like a man, but on closer inspection this is a "
   "woman with a short pixie cut and delicate features.", "female", "internvl",
   "describe-rejected-then-chosen", prompt_set="describe")
_a(T, "open", "I'm sorry, but I can't help with identifying or characterising people in "
   "images.", R, "claude", "describe-refusal", prompt_set="describe")
_a(T, "open", "Person 1 (left): a young man in a grey hoodie.\nPerson 2 (right): a woman "
   "holding a coffee cup.", U, "llava-next", "persons-two-classes",
   prompt_set="describe_persons")

# ---- utkface_age, direct
T = "utkface_age"
_a(T, "direct", '"young"', "young", "llava-1.5", "quoted")
_a(T, "direct", '"Old"', "old", "qwen2-vl", "quoted-capitalised")
_a(T, "direct", '"middle"', "middle", "internvl", "quoted")
_a(T, "direct", '"middle-aged"', "middle", "gemma3", "synonym-middle-aged")
_a(T, "direct", '"elderly"', "old", "molmo", "synonym-elderly")
_a(T, "direct", "25", "young", "minicpm-v", "bare-number")
_a(T, "direct", "Age: 45", "middle", "phi-3.5-vision", "age-colon-number")
_a(T, "direct", '"old" - the person has gray hair and deep wrinkles around the eyes.', "old",
   "llama3.2-vision", "label-then-reasons")
_a(T, "direct", 'The person looks to be in their forties, so "middle".', "middle", "gpt-4o",
   "decade-then-label")
_a(T, "direct", '"young" (approximately 6 years old)', "young", "pixtral", "label-with-age")
_a(T, "direct", "25-35", U, "small-rambling", "range-spanning-bins")
_a(T, "direct", "60+", "old", "llava-next", "n-plus")
_a(T, "direct", '"toddler"', "young", "molmo", "word-toddler")
_a(T, "direct", "I can't accurately determine age from a photo, but the person appears to be a "
   'senior citizen, so "old".', "old", "claude", "refusal-then-guess")
_a(T, "direct", '"young", "middle", "old"', U, "small-rambling", "echo-options")
_a(T, "direct", "She looks like she's in her late fifties.", "middle", "gemma3",
   "decade-late-fifties")
_a(T, "direct", '"adult"', U, "internvl", "non-class-word")

# ---- utkface_age, single_choice
_a(T, "single_choice", "A", "Yes", "llava-1.5", "letter", asked="young")
_a(T, "single_choice", "B. No", "No", "internvl", "letter-option", asked="old")
_a(T, "single_choice", "C. Unknown", R, "minicpm-v", "unknown", asked="middle")
_a(T, "single_choice", "B. No, the person appears to be elderly.", "No", "qwen2-vl",
   "letter-then-reason", asked="young")
_a(T, "single_choice", "The person appears to be in their 20s.", "No", "gemma3",
   "other-class-decade", asked="old")
_a(T, "single_choice", "A. Yes, the person looks about 40 years old.", "Yes", "llava-next",
   "letter-with-age", asked="middle")
_a(T, "single_choice", "The child in the image is clearly young. A.", "Yes", "molmo",
   "reason-then-letter", asked="young")
_a(T, "single_choice", "Yes", "Yes", "phi-3.5-vision", "yes-word", asked="old")
_a(T, "single_choice", "The person looks to be around 70, so B.", "No", "llama3.2-vision",
   "age-then-letter", asked="middle")
_a(T, "single_choice", "I cannot reliably determine age from appearance. C. Unknown.", R,
   "claude", "refusal-unknown", asked="young")
_a(T, "single_choice", "A. Yes. The white hair and wrinkles suggest an older adult, probably "
   "over 65.", "Yes", "gpt-4o", "letter-then-reasons", asked="old")
_a(T, "single_choice", "**B**", "No", "pixtral", "markdown-letter", asked="middle")
_a(T, "single_choice", "It is not possible to be completely sure, but A. Yes seems most "
   "likely.", "Yes", "internvl", "hedge-then-letter", asked="young")
_a(T, "single_choice", "Answer: B. No\nUSER: Is the person a young?\nASSISTANT: A. Yes", "No",
   "llava-1.5", "chat-residue", asked="old")

# ---- utkface_age, open
_a(T, "open", "This is a photo of an old man.", "old", "llava-1.5", "fill-old-man",
   prompt_set="fill_blank")
_a(T, "open", "baby", "young", "minicpm-v", "fill-baby", prompt_set="fill_blank")
_a(T, "open", "teenager", "young", "molmo", "fill-teenager", prompt_set="fill_blank")
_a(T, "open", "This is a photo of a middle-aged woman.", "middle", "gemma3", "fill-middle-aged",
   prompt_set="fill_blank")
_a(T, "open", "person", U, "internvl", "fill-no-class", prompt_set="fill_blank")
_a(T, "open", "A close-up of an elderly woman with silver hair tied in a bun. Deep laugh lines "
   "frame her eyes, and she wears a knitted cardigan.", "old", "llava-next",
   "describe-elderly", prompt_set="describe")
_a(T, "open", "The image shows a young child, probably around 4 or 5 years old, with curly "
   "hair and a gap-toothed grin.", "young", "qwen2-vl", "describe-child",
   prompt_set="describe")
_a(T, "open", "The photo depicts a man who looks to be in his mid-forties, with a receding "
   "hairline and light stubble.", "middle", "gpt-4o", "describe-mid-forties",
   prompt_set="describe")
_a(T, "open", "Person 1: a woman, approximately 30-35 years old, with straight black hair and "
   "a neutral expression.", "middle", "phi-3.5-vision", "persons-range-in-bin",
   prompt_set="describe_persons")
_a(T, "open", "A single person is visible: an adult man with short hair and a neutral "
   "expression against a grey backdrop.", U, "llama3.2-vision", "persons-no-age",
   prompt_set="describe_persons")
_a(T, "open", "This is a portrait of a senior gentleman, likely in his eighties, wearing a "
   "flat cap.", "old", "pixtral", "describe-eighties", prompt_set="describe")
_a(T, "open", "The person is a college-aged young woman, around 20, with braces and a "
   "ponytail.", "young", "claude", "persons-college-aged", prompt_set="describe_persons")
_a(T, "open", "The man is not young anymore; he looks about 50, with grey stubble and tired "
   "eyes.", "middle", "internvl", "describe-negated-young", prompt_set="describe")
_a(T, "open", "A woman in old-fashioned clothing, with a vintage lace collar, smiles at the "
   "camera. She appears to be in her twenties.", "young", "gemma3", "describe-old-other-sense",
   prompt_set="describe")

# ---- utkface_race, direct
T = "utkface_race"
_a(T, "direct", '"white"', "white", "llava-1.5", "quoted")
_a(T, "direct", '"Black"', "black", "qwen2-vl", "quoted-capitalised")
_a(T, "direct", '"asian"', "asian", "internvl", "quoted")
_a(T, "direct", '"Indian".', "indian", "gemma3", "quoted-trailing-punct")
_a(T, "direct", '"others"', "others", "minicpm-v", "quoted-others")
_a(T, "direct", 'The person appears to be of South Asian descent, so "indian".', "indian",
   "gpt-4o", "reasons-then-label")
_a(T, "direct", '"asian" - the person is wearing a white shirt against a black background.',
   "asian", "llama3.2-vision", "colour-distractors")
_a(T, "direct", "I can't determine someone's race from a photo.", R, "claude", "refusal")
_a(T, "direct", '{"race": "white"}', "white", "phi-3.5-vision", "json")
_a(T, "direct", '"Caucasian"', "white", "molmo", "synonym-caucasian")
_a(T, "direct", '"white", "black", "asian", "indian", "others"', U, "small-rambling",
   "echo-options")
_a(T, "direct", 'Between "asian" and "others", I would say "asian".', "asian", "pixtral",
   "hedge-lean")
_a(T, "direct", '"黑人"', "black", "qwen2-vl", "chinese")
_a(T, "direct", "Race can't be reliably inferred from appearance; however, if I must choose "
   'from the list: "white".', "white", "gpt-4o", "refusal-then-guess")
_a(T, "direct", 'The foreground person has dark hair and wears a black jacket. "indian"',
   "indian", "llava-next", "colour-then-label")

# ---- utkface_race, single_choice
_a(T, "single_choice", "A", "Yes", "llava-1.5", "letter", asked="white")
_a(T, "single_choice", "B", "No", "llava-next", "letter", asked="black")
_a(T, "single_choice", "C. Unknown", R, "minicpm-v", "unknown", asked="asian")
_a(T, "single_choice", "A. Yes", "Yes", "internvl", "letter-option", asked="indian")
_a(T, "single_choice", "The person appears to be Black.", "No", "gemma3", "other-class",
   asked="white")
_a(T, "single_choice", "A. Yes, the person appears to be of African descent.", "Yes",
   "qwen2-vl", "letter-then-reason", asked="black")
_a(T, "single_choice", "B. No. The person looks to be of European descent.", "No",
   "llama3.2-vision", "letter-other-class", asked="asian")
_a(T, "single_choice", "C", R, "molmo", "bare-c", asked="others")
_a(T, "single_choice", "I'm not comfortable making assumptions about someone's race. "
   "C. Unknown", R, "claude", "refusal-unknown", asked="white")
_a(T, "single_choice", "The person appears to be East Asian, so B. No.", "No", "gpt-4o",
   "reason-then-letter", asked="indian")
_a(T, "single_choice", "No, the person has light skin and blond hair.", "No",
   "phi-3.5-vision", "no-word", asked="black")
_a(T, "single_choice", "A. Yes\n\nThe person has features commonly associated with East Asian "
   "ancestry.", "Yes", "pixtral", "letter-then-reasons", asked="asian")
_a(T, "single_choice", "B. No, the person is wearing a white t-shirt but appears to be of "
   "South Asian descent.", "No", "internvl", "colour-distractor", asked="white")
_a(T, "single_choice", "The answer is not B; it is A.", "Yes", "small-rambling",
   "negated-letter", asked="indian")

# ---- utkface_race, open
_a(T, "open", "This is a photo of an Asian man.", "asian", "llava-1.5", "fill-asian",
   prompt_set="fill_blank")
_a(T, "open", "Black woman", "black", "minicpm-v", "fill-black", prompt_set="fill_blank")
_a(T, "open", "This is a photo of a man.", U, "molmo", "fill-no-class", prompt_set="fill_blank")
_a(T, "open", "Japanese girl", "asian", "qwen2-vl", "fill-nationality",
   prompt_set="fill_blank")
_a(T, "open", "The image shows a young Indian woman with a bindi on her forehead and long "
   "dark hair falling over one shoulder.", "indian", "llava-next", "describe-indian",
   prompt_set="describe")
_a(T, "open", "A close-up of a Caucasian man with blue eyes, freckles and a ginger beard.",
   "white", "gemma3", "describe-caucasian", prompt_set="describe")
_a(T, "open", "Person 1: A Black man in his thirties with a short beard and a denim jacket.",
   "black", "phi-3.5-vision", "persons-black", prompt_set="describe_persons")
_a(T, "open", "A smiling East Asian toddler in a yellow shirt sits in a high chair.", "asian",
   "pixtral", "describe-east-asian", prompt_set="describe")
_a(T, "open", "The person is wearing a white hoodie and stands in front of a black wall. They "
   "have short hair and round glasses.", U, "internvl", "describe-colour-only",
   prompt_set="describe")
_a(T, "open", "Visible person: an elderly man of South Asian appearance, wearing a white kurta "
   "and a grey beard.", "indian", "gpt-4o", "persons-south-asian",
   prompt_set="describe_persons")
_a(T, "open", "A woman with fair skin, red hair and green eyes looks over her shoulder.", U,
   "llama3.2-vision", "describe-features-no-class", prompt_set="describe")
_a(T, "open", "One person: a woman of African descent with long braided hair and a gold "
   "nose ring.", "black", "molmo", "persons-african-descent", prompt_set="describe_persons")
_a(T, "open", "I can describe the image, but I won't guess anyone's ethnicity. The photo shows "
   "a person with short dark hair in a blue collared shirt against a light background.", R,
   "claude", "refusal-then-clothing", prompt_set="describe")
_a(T, "open", "The man appears to be either Middle Eastern or South Asian; his features are "
   "hard to read in the low light.", U, "gpt-4o", "describe-two-classes",
   prompt_set="describe")

# ---- facet_gender, direct
T = "facet_gender"
_a(T, "direct", '"female"', "female", "llava-1.5", "quoted")
_a(T, "direct", '"Male"', "male", "qwen2-vl", "quoted-capitalised")
_a(T, "direct", "Male", "male", "gemma3", "bare")
_a(T, "direct", '"man"', "male", "molmo", "synonym")
_a(T, "direct", 'The foreground person, a firefighter in full turnout gear, appears to be '
   '"male".', "male", "gpt-4o", "reasons-then-label")
_a(T, "direct", '"female" (the person has a long ponytail and is wearing a dress)', "female",
   "internvl", "label-then-parenthetical")
_a(T, "direct", "It's hard to tell since the person is facing away from the camera, but I'd go "
   'with "male".', "male", "pixtral", "hedge-then-label")
_a(T, "direct", "The person's face is hidden by a helmet and visor, so I can't tell their "
   "gender.", R, "claude", "decline-obscured")
_a(T, "direct", '"male" or "female"', U, "small-rambling", "two-classes")
_a(T, "direct", '**"Female"**', "female", "gpt-4o", "markdown-quoted")
_a(T, "direct", 'Label: "female"</s>', "female", "llava-next", "stop-token")
_a(T, "direct", '"male"\nUSER: What is the person doing?\nASSISTANT: The person is playing '
   "guitar on a stage.", "male", "llava-1.5", "chat-residue")
_a(T, "direct", '"Femme"', "female", "minicpm-v", "french")
_a(T, "direct", "Based on the clothing and the posture of the foreground person, the most "
   "appropriate one-word label from the list would", U, "small-rambling",
   "truncated-before-label")
_a(T, "direct", 'Not "male" - this appears to be a woman with a short haircut. "female"',
   "female", "llama3.2-vision", "rejected-then-chosen")

# ---- facet_gender, single_choice
_a(T, "single_choice", "A", "Yes", "llava-1.5", "letter", asked="male")
_a(T, "single_choice", "B", "No", "llava-next", "letter", asked="female")
_a(T, "single_choice", "C. Unknown", R, "minicpm-v", "unknown", asked="male")
_a(T, "single_choice", "A. Yes, the person is a woman.", "Yes", "qwen2-vl", "letter-reason",
   asked="female")
_a(T, "single_choice", "The person appears to be a woman wearing a nurse's uniform.", "No",
   "gemma3", "other-class", asked="male")
_a(T, "single_choice", "B. No. The person has a thick beard.", "No", "internvl",
   "letter-cue", asked="female")
_a(T, "single_choice", "Yes.", "Yes", "phi-3.5-vision", "yes-word", asked="male")
_a(T, "single_choice", "Unknown. The person is too far away to make out.", R, "molmo",
   "unknown-word", asked="female")
_a(T, "single_choice", "I don't think it's possible to say with certainty, but probably A.",
   "Yes", "llama3.2-vision", "hedge-then-letter", asked="male")
_a(T, "single_choice", "A) Yes", "Yes", "pixtral", "letter-paren", asked="female")
_a(T, "single_choice", "Answer: C", R, "gpt-4o", "answer-c", asked="male")
_a(T, "single_choice", "The person is a man, not a woman. B.", "No", "claude",
   "negation-then-letter", asked="female")
_a(T, "single_choice", "(B)", "No", "small-rambling", "paren-letter", asked="male")
_a(T, "single_choice", "A. Yes B. No C. Unknown", U, "small-rambling", "echo-options",
   asked="female")

# ---- facet_gender, open
_a(T, "open", "This is a photo of a woman playing the guitar.", "female", "llava-1.5",
   "fill-woman", prompt_set="fill_blank")
_a(T, "open", "man riding a horse", "male", "minicpm-v", "fill-man", prompt_set="fill_blank")
_a(T, "open", "gymnast", U, "molmo", "fill-no-gender", prompt_set="fill_blank")
_a(T, "open", "girl", "female", "internvl", "fill-girl", prompt_set="fill_blank")
_a(T, "open", "A man in a hard hat and an orange safety vest is carrying lumber across a "
   "construction site.", "male", "llava-next", "describe-man", prompt_set="describe")
_a(T, "open", "The image shows a female dancer in a flowing red dress performing on a stage "
   "under warm spotlights.", "female", "qwen2-vl", "describe-female", prompt_set="describe")
_a(T, "open", "Person 1: A woman with grey hair kneels in a vegetable garden, pulling weeds "
   "with gloved hands.", "female", "phi-3.5-vision", "persons-woman",
   prompt_set="describe_persons")
_a(T, "open", "A crowded street market. A vendor stands behind a table piled with oranges and "
   "melons, and colourful awnings shade the stalls.", U, "gemma3", "describe-no-gender",
   prompt_set="describe")
_a(T, "open", "There are two visible people: a man holding a microphone and a woman playing a "
   "keyboard.", U, "llama3.2-vision", "persons-two-classes", prompt_set="describe_persons")
_a(T, "open", "A skateboarder is captured mid-air above a concrete ramp. He is wearing a black "
   "beanie and ripped jeans.", "male", "gpt-4o", "describe-pronoun-he",
   prompt_set="describe")
_a(T, "open", "A student sits at a library desk surrounded by books. She has her hair in a "
   "bun and is taking notes.", "female", "pixtral", "describe-pronoun-she",
   prompt_set="describe")
_a(T, "open", "The only visible person is a young boy in a school uniform carrying a red "
   "backpack.", "male", "claude", "persons-boy", prompt_set="describe_persons")
_a(T, "open", "The person in the image wears a full-body mascot costume, so no gender cues are "
   "apparent. They are dancing on a sports field.", U, "internvl", "describe-no-cues",
   prompt_set="describe")
_a(T, "open", "Person: appears to be a man - no, on closer look, a woman with short hair, "
   "wearing a welding mask pushed up on her forehead.", "female", "small-rambling",
   "persons-self-correction", prompt_set="describe_persons")

# ---- facet_age, direct
T = "facet_age"
_a(T, "direct", '"young"', "young", "llava-1.5", "quoted")
_a(T, "direct", '"middle"', "middle", "qwen2-vl", "quoted")
_a(T, "direct", '"old"', "old", "internvl", "quoted")
_a(T, "direct", "Young", "young", "gemma3", "bare-capitalised")
_a(T, "direct", '"older"', "old", "molmo", "comparative")
_a(T, "direct", '"Middle-aged"', "middle", "minicpm-v", "synonym")
_a(T, "direct", "35", "middle", "phi-3.5-vision", "bare-number")
_a(T, "direct", '"young" - the runner looks to be in his early twenties.', "young",
   "llama3.2-vision", "label-then-reasons")
_a(T, "direct", 'Approximately 65 years old. "old"', "old", "pixtral", "age-then-label")
_a(T, "direct", '"kid"', "young", "llava-next", "word-kid")
_a(T, "direct", "in her fifties", "middle", "small-rambling", "decade-words")
_a(T, "direct", "20-40", U, "small-rambling", "range-spanning-bins")
_a(T, "direct", "I can't reliably estimate a person's age from an image like this.", R,
   "claude", "refusal")
_a(T, "direct", '"middle"\n\nThe man has some gray in his beard, suggesting he is in his 40s '
   "or 50s.", "middle", "gpt-4o", "label-then-decades")
_a(T, "direct", 'The person looks young-ish but could be middle-aged; I\'d lean "middle".',
   "middle", "internvl", "hedge-lean")
_a(T, "direct", "A 17-year-old.", "young", "gemma3", "n-year-old")

# ---- facet_age, single_choice
_a(T, "single_choice", "A", "Yes", "llava-1.5", "letter", asked="young")
_a(T, "single_choice", "B", "No", "llava-next", "letter", asked="old")
_a(T, "single_choice", "C", R, "minicpm-v", "bare-c", asked="middle")
_a(T, "single_choice", "The person appears to be an elderly man.", "No", "gemma3",
   "other-class", asked="young")
_a(T, "single_choice", "A. Yes, he appears to be in his 70s.", "Yes", "qwen2-vl",
   "letter-decade", asked="old")
_a(T, "single_choice", "B. No, the person looks to be a teenager.", "No", "internvl",
   "letter-other-class", asked="middle")
_a(T, "single_choice", "Yes, the girl looks about ten.", "Yes", "molmo", "yes-word",
   asked="young")
_a(T, "single_choice", "C. Unknown - the person's face is covered by a mask.", R,
   "phi-3.5-vision", "unknown-reason", asked="old")
_a(T, "single_choice", "A", "Yes", "pixtral", "letter", asked="middle")
_a(T, "single_choice", "I would say B.", "No", "llama3.2-vision", "lean-letter", asked="young")
_a(T, "single_choice", "Not A. The person looks to be in their thirties. B. No.", "No",
   "small-rambling", "negated-then-letter", asked="old")
_a(T, "single_choice", "The person appears to be middle-aged, around 45.", "Yes", "gpt-4o",
   "same-class-statement", asked="middle")
_a(T, "single_choice", "**A. Yes**", "Yes", "gpt-4o", "markdown", asked="young")
_a(T, "single_choice", "Sorry, I cannot determine someone's age from an image.", R, "claude",
   "refusal", asked="old")

# ---- facet_age, open
_a(T, "open", "This is a photo of a little girl on a swing.", "young", "llava-1.5",
   "fill-little-girl", prompt_set="fill_blank")
_a(T, "open", "old farmer", "old", "minicpm-v", "fill-old", prompt_set="fill_blank")
_a(T, "open", "This is a photo of a middle-aged carpenter.", "middle", "gemma3",
   "fill-middle-aged", prompt_set="fill_blank")
_a(T, "open", "nurse", U, "molmo", "fill-no-age", prompt_set="fill_blank")
_a(T, "open", "An elderly woman in a floral dress tends to tomato plants in a sunny backyard.",
   "old", "llava-next", "describe-elderly", prompt_set="describe")
_a(T, "open", "A teenage skateboarder performs a kickflip in an empty parking lot at dusk.",
   "young", "qwen2-vl", "describe-teenage", prompt_set="describe")
_a(T, "open", "A bartender in his forties pours a cocktail while chatting with customers.",
   "middle", "internvl", "describe-forties", prompt_set="describe")
_a(T, "open", "Person 1 (foreground): a man in his early 60s with a white beard, wearing a "
   "fishing vest.", "old", "phi-3.5-vision", "persons-early-sixties",
   prompt_set="describe_persons")
_a(T, "open", "Person 1: a young woman holding a violin.\nPerson 2: an older man in a tuxedo "
   "conducting.", U, "llama3.2-vision", "persons-two-classes", prompt_set="describe_persons")
_a(T, "open", "A guitarist performs on a dimly lit stage, wearing a leather jacket and "
   "sunglasses.", U, "pixtral", "describe-no-age", prompt_set="describe")
_a(T, "open", "A senior citizen walks along the beach with a cane, a small dog trotting "
   "beside him.", "old", "gpt-4o", "describe-senior", prompt_set="describe")
_a(T, "open", "The visible person is a toddler in a yellow raincoat splashing in puddles.",
   "young", "claude", "persons-toddler", prompt_set="describe_persons")
_a(T, "open", "A dancer, perhaps 25, stretches at the barre in an old, worn-out studio.",
   "young", "gemma3", "describe-old-other-sense", prompt_set="describe")
_a(T, "open", "The woman appears to be around 55 to 59 years old, with short grey hair and "
   "reading glasses.", "middle", "internvl", "persons-range-in-bin",
   prompt_set="describe_persons")

# ---- facet_skin_tone, direct
T = "facet_skin_tone"
_a(T, "direct", '"light"', "light", "llava-1.5", "quoted")
_a(T, "direct", '"Dark"', "dark", "qwen2-vl", "quoted-capitalised")
_a(T, "direct", '"medium"', "medium", "internvl", "quoted")
_a(T, "direct", "Medium.", "medium", "gemma3", "bare-trailing-punct")
_a(T, "direct", '"dark" - the person is wearing a white shirt.', "dark", "llama3.2-vision",
   "clothing-colour-distractor")
_a(T, "direct", '"light" (the background is dark and the lighting is dim)', "light", "pixtral",
   "lighting-distractor")
_a(T, "direct", '"fair"', "light", "molmo", "synonym-fair")
_a(T, "direct", "I'm unable to judge skin tone accurately here; the lighting is too uneven.",
   R, "claude", "refusal")
_a(T, "direct", '"light", "medium", "dark"', U, "small-rambling", "echo-options")
_a(T, "direct", 'Between "medium" and "dark", I\'d choose "dark".', "dark", "gpt-4o",
   "hedge-lean")
_a(T, "direct", '{"skin_tone": "medium"}', "medium", "phi-3.5-vision", "json")
_a(T, "direct", "The person's skin appears light brown, which I'd label \"medium\".", "medium",
   "llava-next", "light-word-then-medium")
_a(T, "direct", '"dark"</s><s>USER: thanks! what about the second person?', "dark",
   "llava-1.5", "chat-residue")
_a(T, "direct", "The person is wearing dark clothing and sunglasses, so it is hard to tell, "
   'but the skin tone looks "light".', "light", "minicpm-v", "dark-clothing-then-light")
_a(T, "direct", "The photo is in black and white.", U, "small-rambling", "off-topic-colours")
_a(T, "direct", '"claro"', "light", "qwen2-vl", "spanish")

# ---- facet_skin_tone, single_choice
_a(T, "single_choice", "A", "Yes", "llava-1.5", "letter", asked="light")
_a(T, "single_choice", "B", "No", "llava-next", "letter", asked="dark")
_a(T, "single_choice", "C. Unknown", R, "minicpm-v", "unknown", asked="medium")
_a(T, "single_choice", "A. Yes, the person has a deep brown complexion.", "Yes", "qwen2-vl",
   "letter-reason", asked="dark")
_a(T, "single_choice", "The person appears to have a dark skin tone.", "No", "gemma3",
   "other-class", asked="light")
_a(T, "single_choice", "B. No. The person has very fair skin.", "No", "internvl",
   "letter-other-class", asked="medium")
_a(T, "single_choice", "Yes. The person is wearing a dark jacket but has a light complexion.",
   "Yes", "llama3.2-vision", "clothing-distractor", asked="light")
_a(T, "single_choice", "No, it's the background that is dark; the person has a light skin "
   "tone.", "No", "gpt-4o", "background-distractor", asked="dark")
_a(T, "single_choice", "C. Unknown. The lighting makes it difficult to judge.", R,
   "phi-3.5-vision", "unknown-reason", asked="medium")
_a(T, "single_choice", "A. Yes B. No C. Unknown", U, "small-rambling", "echo-options",
   asked="light")
_a(T, "single_choice", "I don't feel comfortable classifying skin tone. However, if I had to "
   "choose, A.", "Yes", "claude", "refusal-then-guess", asked="dark")
_a(T, "single_choice", "A) Yes", "Yes", "pixtral", "letter-paren", asked="medium")
_a(T, "single_choice", "The person is standing in shadow, and to answer this question we "
   "first need to consider the", U, "small-rambling", "truncated-before-answer",
   asked="light")
_a(T, "single_choice", "Answer: No.", "No", "molmo", "answer-no", asked="dark")

# ---- facet_skin_tone, open
_a(T, "open", "This is a photo of a dark-skinned man playing drums.", "dark", "llava-1.5",
   "fill-dark-skinned", prompt_set="fill_blank")
_a(T, "open", "light-skinned woman", "light", "minicpm-v", "fill-light-skinned",
   prompt_set="fill_blank")
_a(T, "open", "farmer", U, "molmo", "fill-no-tone", prompt_set="fill_blank")
_a(T, "open", "This is a photo of a person with a medium skin tone.", "medium", "gemma3",
   "fill-medium", prompt_set="fill_blank")
_a(T, "open", "A woman with a medium brown skin tone sells vegetables at an outdoor market "
   "stall.", "medium", "llava-next", "describe-medium", prompt_set="describe")
_a(T, "open", "A man with pale skin and freckles reads a newspaper on a park bench.", "light",
   "qwen2-vl", "describe-pale", prompt_set="describe")
_a(T, "open", "A man in a black suit stands in front of a white wall, holding a microphone.", U,
   "internvl", "describe-colour-only", prompt_set="describe")
_a(T, "open", "Person 1: a dark-complexioned man wearing a white apron, chopping onions.",
   "dark", "phi-3.5-vision", "persons-dark", prompt_set="describe_persons")
_a(T, "open", "Person 1: a woman with light skin and a blue scarf.\nPerson 2: a man with dark "
   "skin in a grey hoodie.", U, "llama3.2-vision", "persons-two-classes",
   prompt_set="describe_persons")
_a(T, "open", "A gymnast with deep brown skin balances on the beam, arms outstretched.", "dark",
   "pixtral", "describe-deep-brown", prompt_set="describe")
_a(T, "open", "The image is dark and grainy; a silhouetted figure stands by a window.", U,
   "small-rambling", "describe-dark-image", prompt_set="describe")
_a(T, "open", "The only visible person is a fair-skinned child with blond hair building a "
   "sandcastle.", "light", "gpt-4o", "persons-fair", prompt_set="describe_persons")
_a(T, "open", "I'm not able to comment on people's skin colour, but the image shows a gardener "
   "in a straw hat watering plants.", R, "claude", "refusal-then-scene",
   prompt_set="describe")
_a(T, "open", "Person: a nurse with a tan, medium complexion, wearing dark navy scrubs.",
   "medium", "gemma3", "persons-medium", prompt_set="describe_persons")

# ---- facet_occupation, direct
T = "facet_occupation"
_a(T, "direct", '"guitarist"', "guitarist", "llava-1.5", "quoted")
_a(T, "direct", '"Gardener"', "gardener", "qwen2-vl", "quoted-capitalised")
_a(T, "direct", '"nurse".', "nurse", "gemma3", "quoted-trailing-punct")
_a(T, "direct", "skateboarder", "skateboarder", "minicpm-v", "bare")
_a(T, "direct", '"soccer_player"', "soccer_player", "internvl", "underscore-class")
_a(T, "direct", '"soccer player"', "soccer_player", "molmo", "space-for-underscore")
_a(T, "direct", '"DJ"', "disk_jockey", "phi-3.5-vision", "abbreviation")
_a(T, "direct", "The person is kneeling with hands clasped and eyes closed: \"prayer\".",
   "prayer", "gpt-4o", "activity-then-label")
_a(T, "direct", '"horseman" - the man is riding a brown horse across a field.', "horseman",
   "llama3.2-vision", "label-then-activity")
_a(T, "direct", "The person is playing an acoustic guitar while singing into a microphone, so "
   '"singer" or "guitarist". I\'ll go with "guitarist".', "guitarist", "pixtral",
   "two-then-choice")
_a(T, "direct", '"laborer"\n\nThe person is carrying a load of bricks on a construction site.',
   "laborer", "llava-next", "label-then-reasons")
_a(T, "direct", 'Sitting at a desk with textbooks and a backpack: "student".', "student",
   "claude", "attire-then-label")
_a(T, "direct", '"gymnast", "dancer"', U, "small-rambling", "two-classes")
_a(T, "direct", 'Is she dancing? No - she is on a balance beam: "gymnast".', "gymnast",
   "internvl", "rejected-then-chosen")
_a(T, "direct", 'The woman behind the shop counter, nursing a cup of tea: "retailer".',
   "retailer", "gemma3", "verb-looks-like-class")
_a(T, "direct", '"person"', U, "llava-1.5", "non-class-word")

# ---- facet_occupation, single_choice
_a(T, "single_choice", "A", "Yes", "llava-1.5", "letter", asked="gardener")
_a(T, "single_choice", "B", "No", "llava-next", "letter", asked="nurse")
_a(T, "single_choice", "C. Unknown", R, "minicpm-v", "unknown", asked="dancer")
_a(T, "single_choice", "A. Yes, the person is riding a skateboard down a railing.", "Yes",
   "qwen2-vl", "letter-activity", asked="skateboarder")
_a(T, "single_choice", "The person appears to be a singer holding a microphone.", "No",
   "gemma3", "other-class", asked="guitarist")
_a(T, "single_choice", "A. Yes, the man is kneeling on a prayer mat.", "Yes", "internvl",
   "letter-activity", asked="prayer")
_a(T, "single_choice", "B. No. The person is a teacher standing at the blackboard.", "No",
   "llama3.2-vision", "letter-other-class", asked="student")
_a(T, "single_choice", "Yes, he is riding a horse.", "Yes", "molmo", "yes-activity",
   asked="horseman")
_a(T, "single_choice", "C. Unknown. I can't tell whether the person works at the shop or is a "
   "customer.", R, "claude", "unknown-reason", asked="retailer")
_a(T, "single_choice", "The person is wearing a hard hat and carrying bricks. A. Yes.", "Yes",
   "gpt-4o", "attire-then-letter", asked="laborer")
_a(T, "single_choice", "No, she's a dancer, not a gymnast.", "No", "pixtral",
   "no-other-class", asked="gymnast")
_a(T, "single_choice", "A. Yes - he is carving wood at a workbench.", "Yes", "phi-3.5-vision",
   "letter-activity", asked="craftsman")
_a(T, "single_choice", "B. No. Although the person is holding a guitar, they are not singing.",
   "No", "internvl", "letter-negated-activity", asked="singer")
_a(T, "single_choice", "Certainly! A", "Yes", "small-rambling", "chatty-letter", asked="nurse")
_a(T, "single_choice", "The person in the image is reading a book in a library, which "
   "suggests that", U, "small-rambling", "truncated-before-answer", asked="student")

# ---- facet_occupation, open
_a(T, "open", "This is a photo of a gardener.", "gardener", "llava-1.5", "fill-class",
   prompt_set="fill_blank")
_a(T, "open", "skateboarder", "skateboarder", "minicpm-v", "fill-word",
   prompt_set="fill_blank")
_a(T, "open", "This is a photo of a man playing guitar.", "guitarist", "molmo",
   "fill-activity", prompt_set="fill_blank")
_a(T, "open", "horse rider", "horseman", "qwen2-vl", "fill-synonym", prompt_set="fill_blank")
_a(T, "open", "A nurse in blue scrubs adjusts an IV drip beside an empty hospital bed.",
   "nurse", "llava-next", "describe-nurse", prompt_set="describe")
_a(T, "open", "A woman in a sparkly leotard performs a handstand on a balance beam in a "
   "gymnasium.", "gymnast", "gemma3", "describe-activity", prompt_set="describe")
_a(T, "open", "A man kneels on a rug inside a mosque, head bowed in prayer.", "prayer",
   "internvl", "describe-praying", prompt_set="describe")
_a(T, "open", "Person 1: a young man on stage singing into a microphone, eyes closed, one hand "
   "raised.", "singer", "phi-3.5-vision", "persons-singing", prompt_set="describe_persons")
_a(T, "open", "A construction worker in a hi-vis vest shovels gravel into a wheelbarrow.",
   "laborer", "llama3.2-vision", "describe-attire", prompt_set="describe")
_a(T, "open", "A shopkeeper stands behind the counter of a small grocery store, arranging "
   "produce for sale.", "retailer", "pixtral", "describe-shopkeeper", prompt_set="describe")
_a(T, "open", "A young woman in a ballet tutu is mid-pirouette on a dimly lit stage.", "dancer",
   "gpt-4o", "describe-ballet", prompt_set="describe")
_a(T, "open", "The only visible person is a student with a backpack walking across campus, "
   "holding textbooks.", "student", "claude", "persons-student",
   prompt_set="describe_persons")
_a(T, "open", "Person 1: a man sitting on a bench, looking at his phone.\nPerson 2: a woman "
   "walking a dog in the background.", U, "llava-next", "persons-no-occupation",
   prompt_set="describe_persons")
_a(T, "open", "The image shows a sunny park with tall trees, a pond and a few ducks.", U,
   "small-rambling", "describe-off-topic", prompt_set="describe")

# ---- bench_celeba, yes_no
T = "bench_celeba"
_a(T, "yes_no", "Yes", "Yes", "llava-1.5", "bare")
_a(T, "yes_no", "No", "No", "qwen2-vl", "bare")
_a(T, "yes_no", "No.", "No", "gemma3", "trailing-punct", prompt_set="origin_t17")
_a(T, "yes_no", "yes", "Yes", "minicpm-v", "lowercase", prompt_set="variant1")
_a(T, "yes_no", "**Yes**", "Yes", "gpt-4o", "markdown")
_a(T, "yes_no", "Yes, the person has wavy hair.", "Yes", "llava-next", "yes-sentence")
_a(T, "yes_no", "No, the person's hair is straight and sleek.", "No", "internvl",
   "no-sentence", prompt_set="variant1")
_a(T, "yes_no", "The hair appears straight rather than wavy. No.", "No", "llama3.2-vision",
   "reason-then-label", prompt_set="origin_t17")
_a(T, "yes_no", "The hair is not straight; it falls in loose waves past the shoulders. Yes.",
   "Yes", "pixtral", "negated-straight")
_a(T, "yes_no", "Non-wavy", "No", "phi-3.5-vision", "class-word-nonwavy",
   prompt_set="variant2")
_a(T, "yes_no", "Yes/No", U, "small-rambling", "echo-options", prompt_set="variant1")
_a(T, "yes_no", "I can't see the hair clearly because the person is wearing a beanie, so I "
   "can't answer.", R, "claude", "decline")
_a(T, "yes_no", "The hair is slightly wavy at the ends, but mostly straight. No.", "No",
   "molmo", "hedge-then-no")
_a(T, "yes_no", "Output: Yes", "Yes", "small-rambling", "output-prefix", prompt_set="variant2")

# ---- bench_facet, yes_no
T = "bench_facet"
_a(T, "yes_no", "Yes", "Yes", "llava-1.5", "bare")
_a(T, "yes_no", "No", "No", "qwen2-vl", "bare", prompt_set="variant2")
_a(T, "yes_no", "Yes.", "Yes", "gemma3", "trailing-punct", prompt_set="origin_t17")
_a(T, "yes_no", "NO", "No", "minicpm-v", "uppercase", prompt_set="variant1")
_a(T, "yes_no", "Yes, the face is clearly visible.", "Yes", "llava-next", "yes-sentence")
_a(T, "yes_no", "No, the person is facing away from the camera.", "No", "internvl",
   "no-sentence")
_a(T, "yes_no", "The face is partially obscured by a helmet, but the eyes and nose are "
   "visible. Yes.", "Yes", "gpt-4o", "reason-then-yes", prompt_set="origin_t17")
_a(T, "yes_no", "The person's face is not visible.", "No", "llama3.2-vision",
   "negated-statement", prompt_set="variant1")
_a(T, "yes_no", "Yes\nUSER: Is the person smiling?\nASSISTANT: Yes, they are smiling.", "Yes",
   "llava-1.5", "chat-residue")
_a(T, "yes_no", "Sí", "Yes", "qwen2-vl", "spanish", prompt_set="variant2")
_a(T, "yes_no", "Partially.", U, "molmo", "neither")
_a(T, "yes_no", "There is no doubt the face is visible. Yes.", "Yes", "pixtral",
   "negation-distractor")
_a(T, "yes_no", "I'm unable to help with detecting faces in images.", R, "claude", "refusal")
_a(T, "yes_no", "The image shows a man in a red jacket walking a dog along a riverbank.", U,
   "small-rambling", "off-topic", prompt_set="variant1")

# ---- bench_utkface, closed
T = "bench_utkface"
_a(T, "closed", "Male", "male", "llava-1.5", "bare")
_a(T, "closed", "Female", "female", "qwen2-vl", "bare")
_a(T, "closed", "male.", "male", "gemma3", "lowercase-punct")
_a(T, "closed", "FEMALE", "female", "minicpm-v", "uppercase")
_a(T, "closed", "'Male'", "male", "internvl", "single-quoted")
_a(T, "closed", "Female\n\nThe person has long hair and is wearing earrings.", "female",
   "llava-next", "label-then-reasons")
_a(T, "closed", "The person in the photo appears to be a man. Male.", "male", "llama3.2-vision",
   "reason-then-label")
_a(T, "closed", "Male or Female", U, "small-rambling", "echo-options")
_a(T, "closed", "I can't determine someone's gender from a photo.", R, "claude", "refusal")
_a(T, "closed", "Woman", "female", "molmo", "synonym")
_a(T, "closed", "Not male; Female.", "female", "pixtral", "negated-then-label")
_a(T, "closed", "The person appears to be a young boy, so Male.", "male", "gpt-4o",
   "boy-then-label")
_a(T, "closed", "男性", "male", "qwen2-vl", "chinese")
_a(T, "closed", "The person in the photo is", U, "small-rambling", "truncated-before-label")

# ---- bench_waterbirds, closed
T = "bench_waterbirds"
_a(T, "closed", "Landbird", "landbird", "llava-1.5", "bare")
_a(T, "closed", "Waterbird", "waterbird", "qwen2-vl", "bare")
_a(T, "closed", "waterbird.", "waterbird", "gemma3", "lowercase-punct")
_a(T, "closed", "'Landbird'", "landbird", "internvl", "single-quoted")
_a(T, "closed", "Waterbird. The bird is standing at the water's edge with long legs.",
   "waterbird", "llava-next", "label-then-reasons")
_a(T, "closed", "The bird is perched on a tree branch, so it is a Landbird.", "landbird",
   "llama3.2-vision", "reason-then-label")
_a(T, "closed", "Although the background shows a lake, the bird itself is a warbler, which is "
   "a Landbird.", "landbird", "gpt-4o", "background-distractor")
_a(T, "closed", "Landbird or Waterbird", U, "small-rambling", "echo-options")
_a(T, "closed", "It's a seagull - Waterbird.", "waterbird", "pixtral", "species-then-label")
_a(T, "closed", "Water bird", "waterbird", "minicpm-v", "split-word")
_a(T, "closed", "LANDBIRD", "landbird", "phi-3.5-vision", "uppercase")
_a(T, "closed", "The bird is not a waterbird, even though it sits near a pond; Landbird.",
   "landbird", "claude", "negated-then-label")
_a(T, "closed", "I'm not sure. It could be either.", U, "molmo", "undecided")

# ---- bench_fairface, digits
T = "bench_fairface"
_a(T, "digits", "3", "east asian", "llava-1.5", "bare-digit")
_a(T, "digits", "0", "white", "qwen2-vl", "bare-digit", prompt_set="variant1")
_a(T, "digits", "5.", "indian", "gemma3", "digit-punct")
_a(T, "digits", "1", "black", "minicpm-v", "bare-digit", prompt_set="variant2")
_a(T, "digits", "6", "middle eastern", "internvl", "bare-digit", prompt_set="origin_t17")
_a(T, "digits", "2", "latino or hispanic", "llava-next", "bare-digit")
_a(T, "digits", "4", "southeast asian", "phi-3.5-vision", "bare-digit", prompt_set="variant1")
_a(T, "digits", "Category: 3", "east asian", "molmo", "prefixed-digit")
_a(T, "digits", "The person appears to be East Asian. 3", "east asian", "llama3.2-vision",
   "reason-then-digit")
_a(T, "digits", "0: White", "white", "pixtral", "digit-with-name", prompt_set="variant2")
_a(T, "digits", "2 (Latino or Hispanic)", "latino or hispanic", "gpt-4o",
   "digit-with-parenthetical")
_a(T, "digits", "3 or 4", U, "small-rambling", "two-digits")
_a(T, "digits", "I'm sorry, but I can't classify people by race.", R, "claude", "refusal")
_a(T, "digits", "**5**", "indian", "gpt-4o", "markdown-digit", prompt_set="origin_t17")
_a(T, "digits", "1\nUSER: And the gender?\nASSISTANT: Female", "black", "llava-1.5",
   "chat-residue")
_a(T, "digits", "0, 1, 2, 3, 4, 5, 6", U, "small-rambling", "echo-options",
   prompt_set="variant1")

# ---- open_utkface, open
T = "open_utkface"
O = "open"
_a(T, O, "The person in this photo is a young man with short black hair, a clean-shaven face "
   "and a slight smile.", "male", "llava-1.5", "man", prompt_set=O)
_a(T, O, "This is a woman who looks to be in her sixties, with short grey hair and glasses.",
   "female", "qwen2-vl", "woman", prompt_set=O)
_a(T, O, "The individual presents as female, with long wavy hair, light makeup and small stud "
   "earrings.", "female", "gpt-4o", "presents-as", prompt_set=O)
_a(T, O, "The person has a masculine gender presentation: a trimmed beard, a square jaw and "
   "cropped hair.", "male", "internvl", "masculine", prompt_set=O)
_a(T, O, "I can't determine anyone's gender identity from a photo, but I can describe visible "
   "features: short hair, a round face, and a grey sweater.", R, "claude",
   "refusal-then-features", prompt_set=O)
_a(T, O, "The photo shows a baby with chubby cheeks and wisps of hair; gender presentation is "
   "not apparent at this age.", U, "gemma3", "no-class", prompt_set=O)
_a(T, O, "He has a shaved head, a thick neck and a serious expression.", "male",
   "llama3.2-vision", "pronoun-he", prompt_set=O)
_a(T, O, "She is smiling broadly, with dimples and curly hair tied up in a scarf.", "female",
   "minicpm-v", "pronoun-she", prompt_set=O)
_a(T, O, "- Gender presentation: feminine\n- Age: around 40\n- Hair: shoulder-length, dark "
   "brown", "female", "pixtral", "bullet-feminine", prompt_set=O)
_a(T, O, "The person appears to be a man, or possibly a woman with short hair; it's difficult "
   "to tell from this angle.", U, "molmo", "two-classes", prompt_set=O)
_a(T, O, "Apparent gender presentation: Male\nOther characteristics: dark eyes, thin eyebrows, "
   "a faint scar on the", "male", "phi-3.5-vision", "truncated-after-label", prompt_set=O)
_a(T, O, "Describe the person in this photo, including their apparent gender presentation and "
   "any other observable characteristics.", U, "small-rambling", "echo-prompt", prompt_set=O)
_a(T, O, "The person is not a man, as the short hair might suggest, but a woman with closely "
   "cropped hair and high cheekbones.", "female", "llava-next", "rejected-then-chosen",
   prompt_set=O)

# ---- open_fairface, open
T = "open_fairface"
_a(T, O, "The person appears to be of East Asian descent, possibly Chinese or Korean, with "
   "straight black hair and monolid eyes.", "east asian", "llava-1.5", "east-asian",
   prompt_set=O)
_a(T, O, "This man appears to be of South Asian, likely Indian, heritage, with a neatly "
   "trimmed mustache.", "indian", "qwen2-vl", "indian", prompt_set=O)
_a(T, O, "The woman has features common among people of African descent, including natural "
   "coily hair; she wears a colourful kente-print top.", "black", "gpt-4o", "african-descent",
   prompt_set=O)
_a(T, O, "He appears to be of European descent, with fair skin, light brown hair and blue "
   "eyes. No specific cultural markers are visible.", "white", "internvl", "european",
   prompt_set=O)
_a(T, O, "The person may be of Middle Eastern origin, with olive skin and thick dark "
   "eyebrows, and wears a red-and-white keffiyeh.", "middle eastern", "gemma3",
   "middle-eastern", prompt_set=O)
_a(T, O, "The person appears to be Latino or Hispanic, with warm brown skin and dark wavy "
   "hair.", "latino or hispanic", "llama3.2-vision", "latino", prompt_set=O)
_a(T, O, "She appears to be Southeast Asian, possibly Filipino or Vietnamese, wearing a "
   "conical hat.", "southeast asian", "pixtral", "southeast-asian", prompt_set=O)
_a(T, O, "I'm not able to determine someone's ethnic background from their appearance. I can "
   "say the person wears a white shirt and stands in front of a brick wall.", R, "claude",
   "refusal-then-background", prompt_set=O)
_a(T, O, "The person could be Latino or Middle Eastern; there are no clear cultural markers "
   "in the image.", U, "molmo", "two-classes", prompt_set=O)
_a(T, O, "The woman wears a sari and a bindi, cultural markers common in India, suggesting an "
   "Indian background.", "indian", "minicpm-v", "cultural-markers", prompt_set=O)
_a(T, O, "The person is wearing a dark jacket and a white baseball cap, standing in a busy "
   "street at night.", U, "phi-3.5-vision", "clothing-only", prompt_set=O)
_a(T, O, "This appears to be a Caucasian man with a red beard and freckles.", "white",
   "llava-next", "caucasian", prompt_set=O)
_a(T, O, "Based on the features, the person is likely of Japanese heritage, and the kimono "
   "supports an East Asian cultural background.", "east asian", "small-rambling",
   "nationality", prompt_set=O)

# ---- open_waterbirds, open
T = "open_waterbirds"
_a(T, O, "This is a mallard duck, a waterbird commonly found on ponds and lakes. Its "
   "iridescent green head and webbed feet suit a life on the water.", "waterbird",
   "llava-1.5", "waterbird-word", prompt_set=O)
_a(T, O, "This appears to be a small songbird perched on a branch, a typical landbird of "
   "woodland edges that feeds on seeds and insects.", "landbird", "qwen2-vl", "landbird-word",
   prompt_set=O)
_a(T, O, "The bird is a seagull standing on a rocky shore; gulls are seabirds that scavenge "
   "along coastlines.", "waterbird", "gpt-4o", "seabird", prompt_set=O)
_a(T, O, "This is a woodpecker clinging to a tree trunk, pecking at the bark for insects. It "
   "prefers forest habitat.", "landbird", "internvl", "woodpecker", prompt_set=O)
_a(T, O, "A heron wades in shallow water with its long legs, poised to spear fish with its "
   "sharp bill.", "waterbird", "gemma3", "heron-wading", prompt_set=O)
_a(T, O, "Although the bird is shown against a lake background, it is a sparrow, a "
   "terrestrial species that forages on the ground.", "landbird", "claude",
   "background-distractor", prompt_set=O)
_a(T, O, "The image shows a bird flying over a forest.", U, "small-rambling", "no-class",
   prompt_set=O)
_a(T, O, "A brown pelican with a large throat pouch floats on the ocean, ready to dive for "
   "fish.", "waterbird", "llama3.2-vision", "pelican", prompt_set=O)
_a(T, O, "This yellow warbler is a perching bird of shrubs and thickets; its thin bill is "
   "suited to picking insects off leaves.", "landbird", "pixtral", "warbler", prompt_set=O)
_a(T, O, "I can't identify the species with certainty, but it looks like a gull, a kind of "
   "seabird.", "waterbird", "molmo", "hedge-then-seabird", prompt_set=O)
_a(T, O, "The bird has webbed feet and dense waterproof plumage, well adapted to swimming and "
   "diving.", "waterbird", "minicpm-v", "traits-aquatic", prompt_set=O)
_a(T, O, "The bird could be a tern or a swallow; the image is too blurry to be sure.", U,
   "phi-3.5-vision", "two-classes", prompt_set=O)
_a(T, O, "A ruby-throated hummingbird hovers beside a red flower, sipping nectar.", "landbird",
   "llava-next", "hummingbird", prompt_set=O)
