"""Realistic LVLM answers and what a careful reader takes each to say, per task kind.

`ANSWERS` is a list of dicts: task, kind (direct, single_choice, yes_no, closed, digits, open),
prompt_set, asked (single choice: the class asked about), answer, expected (a class name of the
task, for the single-choice question "Yes" or "No", or "REFUSED" / "UNPARSEABLE") and source
(a key of SOURCES: where the phrasing comes from). Most entries are phrasing families written
once and filled in with each class and synonym of a task; hand-written cases follow them.
"""

from __future__ import annotations

R, U = "REFUSED", "UNPARSEABLE"

SOURCES = {
    "bare": "LLaVA-1.5 / LLaVA-NeXT and Qwen2-VL answer a closed question with the bare label, "
            "capitalised or not, often with a period",
    "quoted": "the direct question asks for the label 'in quotation marks'; Qwen2-VL and "
              "LLaVA-NeXT follow it literally, in double or single quotes",
    "markdown": "Llama 3.2 Vision and Gemma 3 bold the answer (**X**), often on a line of its "
                "own, sometimes under a heading",
    "sentence": "Qwen2-VL, InternVL and GPT-4o-style answers restate the question as a sentence "
                "('The person in the image is female.')",
    "explained": "a label then a reason (LLaVA-NeXT 'Male. The person has a beard.')",
    "note": "Gemma 3 and Llama 3.2 Vision add a disclaimer paragraph after the label ('Please "
            "note that I can't determine someone's gender identity from a photo'), as in the "
            "answers of the report that asked for this reader",
    "hedge": "answers that hedge and then commit ('It's hard to say, but ...')",
    "refusal": "policy refusals of Llama 3.2 Vision, Gemma 3 and hosted models to demographic "
               "questions",
    "unknown": "the model picks no class: 'Unknown', the single-choice option C",
    "both": "answers naming two classes or echoing the list",
    "negation": "answers whose only claim denies a class ('does not appear to be female')",
    "residue": "chat residue from decoding the whole sequence or from a server that keeps "
               "special tokens (USER / ASSISTANT markers, </s>, <|im_end|>, <end_of_turn>)",
    "echo": "models that repeat the instruction before answering (LLaVA-1.5 7B, MiniCPM-V)",
    "letter": "single-choice answers by option letter, in every form MMBench-style evaluations "
              "meet ('B', '**B**', '(B) No', 'I'd choose A.')",
    "off_topic": "answers that describe the image and name no class",
    "describe": "open-ended descriptions (LLaVA-NeXT, Qwen2-VL, Gemma 3) to the benchmark's "
                "C.3.3 prompts and the study's 'Describe this image.'",
    "species": "Waterbirds descriptions name the species, with a habitat that may contradict "
               "it (the habitat is the spurious attribute)",
}

ANSWERS: list[dict] = []


def add(task, kind, answer, expected, source, asked=None, prompt_set=None):
    ANSWERS.append({"task": task, "kind": kind, "answer": answer, "expected": expected,
                    "source": source, "asked": asked,
                    "prompt_set": prompt_set or {"direct": "direct", "single_choice":
                                                 "single_choice", "open": "open"}.get(kind,
                                                                                      "origin")})


# --- direct question (the demographic study) ------------------------------------------------
# (task, attribute words, [(class, spelling as a model writes it)], other classes to pair with)
DIRECT_TASKS = {
    "utkface_gender": ("gender", [("Male", "male"), ("Female", "female"), ("Male", "man"),
                                  ("Female", "woman")]),
    "facet_gender": ("gender", [("Male", "male"), ("Female", "female")]),
    "utkface_race": ("race", [("White", "white"), ("Black", "black"), ("Asian", "asian"),
                              ("Indian", "indian"), ("Others", "others")]),
    "facet_age": ("age", [("young", "young"), ("middle", "middle"), ("old", "old"),
                          ("middle", "middle-aged"), ("old", "elderly")]),
    "utkface_age": ("age", [("young", "young"), ("old", "old")]),
    "facet_skin_tone": ("skin tone", [("light", "light"), ("medium", "medium"),
                                      ("dark", "dark")]),
    "facet_occupation": ("occupation", [("nurse", "nurse"), ("guitarist", "guitarist"),
                                        ("skateboarder", "skateboarder"),
                                        ("horseman", "horseman"), ("laborer", "laborer"),
                                        ("basketball_player", "basketball_player"),
                                        ("doctor", "doctor"), ("seller", "vendor"),
                                        ("lawman", "police officer")]),
}
DIRECT_LABEL = [
    ('"{x}"', "quoted"), ("{x}", "bare"), ("{X}.", "bare"), ("'{x}'", "quoted"),
    ("**{X}**", "markdown"), ('The label is "{x}".', "sentence"), ('Label: "{x}"', "quoted"),
    ('"{X}" - based on the visible features.', "explained"),
    ("{X}\n\nPlease note that this label is based only on visual appearance and may not "
     "reflect how the person sees themselves.", "note"),
    ('"{x}"\n\n*Note: I can\'t determine someone\'s {attr} with certainty from a photo.*',
     "note"),
    ('The foreground person\'s {attr} is "{x}".', "sentence"),
    ('I would label this as "{x}".', "sentence"),
    ('ASSISTANT: "{x}"', "residue"), ('"{x}"</s>', "residue"), ("{X}<end_of_turn>", "residue"),
    ("{PROMPT} \"{x}\"", "echo"),
    ('I cannot be certain, but I would say "{x}".', "hedge"),
    ("I'm not able to determine {attr} with certainty from an image. However, based on visual "
     'appearance, the label would be "{x}".', "hedge"),
    ('**Label:** "{x}"', "markdown"),
]
DIRECT_REFUSAL = [
    ("I'm sorry, but I can't determine a person's {attr} from an image.", R, "refusal"),
    ("I cannot make assumptions about someone's {attr} based on their appearance.", R,
     "refusal"),
    ("I'm not able to provide a label for a person's {attr}.", R, "refusal"),
    ("As an AI, I avoid labelling people by {attr}.", R, "refusal"),
    ('"unknown"', R, "unknown"), ("Unknown", R, "unknown"),
    ("It is not possible to determine someone's {attr} from a photo alone.", R, "refusal"),
    ('"person"', U, "off_topic"), ('"human"', U, "off_topic"),
    ("The image shows a person standing outdoors in front of a building.", U, "off_topic"),
]


def _direct():
    from nhfair_jax.lvlm.tasks import get_task, prompt_text

    for task, (attr, spellings) in DIRECT_TASKS.items():
        t = get_task(task)
        prompt = prompt_text(t, "direct")
        for cls, x in spellings:
            for text, source in DIRECT_LABEL:
                answer = text.format(x=x, X=x[:1].upper() + x[1:], attr=attr, PROMPT=prompt)
                add(task, "direct", answer, cls, source)
        for text, expected, source in DIRECT_REFUSAL:
            add(task, "direct", text.format(attr=attr), expected, source)
        (_, x0), (c1, x1) = spellings[0], spellings[1]
        add(task, "direct", f'"{x0}" or "{x1}"', U, "both")
        add(task, "direct", f"{x0.capitalize()} or {x1}", U, "both")
        add(task, "direct", "[" + ", ".join(t.names()) + "]", U, "both")
        binary = len(t.classes) == 2
        add(task, "direct", f"Not {x0}.", c1 if binary else U, "negation")
        add(task, "direct", f"The person does not appear to be {x0}.", c1 if binary else U,
            "negation")


_direct()
for answer, expected in [
        ('"skater"', "skateboarder"), ('"guitar player"', "guitarist"), ('"Nurse"', "nurse"),
        ('"dancers"', "dancer"), ('"labourer"', "laborer"), ('"rider"', U), ('"guitar"', U),
        ('"musician"', U), ('"singer" or "guitarist"', U), ('"horse"', U), ('"nursery"', U),
        ('"skateboard"', U), ('"computer_user"', "computer_user"), ('"DJ"', "disk_jockey"),
        ('"firefighter"', "fireman"), ('"soccer player"', "soccer_player"),
        ("The person is playing guitar and singing: \"guitarist\"", "guitarist"),
        ('"not a nurse"', U), ("I am unable to determine the occupation.", R),
        ("Sorry, I can't identify occupations from images.", R), ('"worker"', U)]:
    add("facet_occupation", "direct", answer, expected, "quoted")
for task, answer, expected in [
        ("utkface_race", '"Caucasian"', "White"), ("utkface_race", '"East Asian"', "Asian"),
        ("utkface_race", '"South Asian"', "Indian"), ("utkface_race", '"Hispanic"', "Others"),
        ("utkface_race", '"other"', "Others"), ("utkface_race", '"Native American"', U),
        ("utkface_race", 'The person has black hair and wears a white shirt.', U),
        ("utkface_race", '"White" or "Asian"', U),
        ("utkface_race", "I'm sorry, I can't assign a race to a person.", R),
        ("facet_age", '"adult"', "middle"), ("facet_age", '"older"', "old"),
        ("facet_age", "The person looks about 30 years old: \"middle\"", "middle"),
        ("facet_skin_tone", '"lighter"', "light"), ("facet_skin_tone", '"darker"', "dark"),
        ("facet_skin_tone", '"medium" - the person has dark hair.', "medium"),
        ("utkface_gender", '"Gentleman"', "Male"), ("utkface_gender", '"Girl"', "Female"),
        ("utkface_gender", '"Males"', "Male"), ("utkface_gender", '"Feminine"', "Female"),
        ("utkface_gender", "Femalee", U),
        ("utkface_gender", "This is not a man but a woman.", "Female"),
        ("utkface_gender", "Male\n\nPlease note that I can't determine someone's gender "
                           "identity from a photo.", "Male"),
        ("utkface_gender", "Female\n\nPlease note: gender identity is personal. Many people "
                           "who look male or female identify otherwise.", "Female"),
        ("utkface_gender", "Neither male nor female can be assigned with confidence.", U)]:
    add(task, "direct", answer, expected, "quoted" if answer.startswith('"') else "sentence")


# --- single choice (the study's question, asked with the true and with a wrong class) -------
CHOICE_TASKS = {"utkface_gender": [("Male", "male", "Female", "female"),
                                   ("Female", "female", "Male", "male")],
                "facet_occupation": [("nurse", "nurse", "doctor", "doctor"),
                                     ("guitarist", "guitarist", "singer", "singer"),
                                     ("gardener", "gardener", "farmer", "farmer")],
                "utkface_race": [("Asian", "asian", "Indian", "indian")],
                "facet_gender": [("Female", "female", "Male", "male")]}
YES = [("A", "letter"), ("A.", "letter"), ("A. Yes", "letter"), ("**A**", "letter"),
       ("**A. Yes**", "letter"), ("(A) Yes", "letter"), ("A) Yes", "letter"),
       ("Answer: A", "letter"), ("The answer is A.", "letter"), ("I'd choose A.", "letter"),
       ("I would choose option A.", "letter"), ("a", "letter"), ("[A]", "letter"),
       ("A. Yes, the person in the image appears to be a {asked}.", "letter"),
       ("Yes", "bare"), ("Yes.", "bare"), ("yes", "bare"),
       ("Yes, the person in the image is a {asked}.", "sentence"),
       ("The person in the image is a {asked}.", "sentence"),
       ("The person in the image is {asked}.", "sentence"),
       ("ASSISTANT: A", "residue"), ("A</s>", "residue"), ("A. Yes<|im_end|>", "residue"),
       ("{PROMPT} A", "echo"),
       ("I cannot be certain, but I would choose A.", "hedge"),
       ("**A. Yes**\n\nPlease note that I cannot determine this with certainty from an image.",
        "note"),
       ("Yes, I think so.", "bare")]
NO = [("B", "letter"), ("B.", "letter"), ("B. No", "letter"), ("**B**", "letter"),
      ("**B. No**", "letter"), ("(B) No", "letter"), ("B) No", "letter"),
      ("Answer: B", "letter"), ("The answer is B.", "letter"), ("I'd choose B.", "letter"),
      ("I would go with option B.", "letter"), ("b.", "letter"),
      ("B. No, the person appears to be a {other}.", "letter"),
      ("No", "bare"), ("No.", "bare"), ("Nope", "bare"), ("Definitely not.", "bare"),
      ("I don't think so.", "bare"),
      ("No, the person in the image is not a {asked}.", "sentence"),
      ("The person in the image is not a {asked}.", "sentence"),
      ("The person in the image is a {other}.", "sentence"),
      ("ASSISTANT: B", "residue"), ("B<end_of_turn>", "residue"), ("{PROMPT} B", "echo"),
      ("**B. No**\n\nPlease note that I can't determine someone's identity from a photo.",
       "note"),
      ("It's hard to say, but I would say no.", "hedge")]
NEITHER = [("C", R, "letter"), ("C. Unknown", R, "letter"), ("Unknown", R, "unknown"),
           ("C. Unknown - the image does not show enough.", R, "unknown"),
           ("I'm sorry, I can't determine that from the image.", R, "refusal"),
           ("A or B", U, "both"), ("A. Yes\nB. No\nC. Unknown", U, "both"),
           ("A. Yes or B. No", U, "both"), ("Yes and no.", U, "both"),
           ("A. No", U, "both"), ("The person is wearing a hat.", U, "off_topic")]


def _choice():
    from nhfair_jax.lvlm.tasks import get_task, prompt_text

    for task, pairs in CHOICE_TASKS.items():
        t = get_task(task)
        for true_cls, true_x, other_cls, other_x in pairs:
            # asked with the true class: Yes answers say Yes; and with a wrong one (the model
            # may answer either way: the phrasings name the other class consistently)
            for asked_cls, asked_x, alt_x in ((true_cls, true_x, other_x),
                                              (other_cls, other_x, true_x)):
                prompt = prompt_text(t, "single_choice", asked_cls)
                for text, source in YES:
                    add(task, "single_choice", text.format(asked=asked_x, other=alt_x,
                                                           PROMPT=prompt),
                        "Yes", source, asked=asked_cls)
                for text, source in NO:
                    add(task, "single_choice", text.format(asked=asked_x, other=alt_x,
                                                           PROMPT=prompt),
                        "No", source, asked=asked_cls)
            for text, expected, source in NEITHER:
                add(task, "single_choice", text, expected, source, asked=true_cls)


_choice()
for asked, answer, expected in [
        ("Male", "The person in the image is female.", "No"),
        ("Female", "The person in the image is female.", "Yes"),
        ("Male", "The person does not appear to be female.", "Yes"),
        ("Male", "A person is shown, but I cannot say.", R),
        ("Male", "I'm not sure, but yes.", "Yes"), ("Male", "I'm not sure.", R),
        ("Male", "Uncertain", R), ("Male", "It is not possible to tell. C. Unknown", R),
        ("Male", "Yes, the person is female.", U), ("Male", "No, the person is male.", U)]:
    add("utkface_gender", "single_choice", answer, expected, "sentence", asked=asked)
for asked, answer, expected in [
        ("nurse", "Not a nurse.", "No"), ("nurse", "Yes, the person is wearing scrubs.", "Yes"),
        ("nurse", "No, the person is a dancer.", "No"),
        ("gardener", "The person could be a gardener.", "Yes"),
        ("nurse", "C. Unknown, the image is ambiguous.", R),
        ("nurse", "I cannot be certain, however the answer is A.", "Yes"),
        ("nurse", "It is unclear from the image.", R), ("nurse", "Sorry, I can't answer that.", R),
        ("nurse", "Yeah", "Yes"), ("nurse", "Yep.", "Yes"), ("nurse", "No!", "No")]:
    add("facet_occupation", "single_choice", answer, expected, "sentence", asked=asked)


# --- yes / no closed questions (the benchmark's CelebA wavy hair and FACET visible face) -----
YES_NO_TASKS = {
    "bench_celeba": {
        "yes": ["Yes, the person has wavy hair.", "The person's hair is wavy.",
                "Yes\n\nThe hair shows clear waves.", "Wavy", "Yes, the hair looks wavy.",
                "The person appears to have wavy hair.", "Yes - wavy hair.",
                "Yes. However, I can't be completely certain from a single photo.",
                "The person does not have straight hair.",
                "Based on the image, yes, the person is wavy-haired."],
        "no": ["No, the person does not have wavy hair.", "No, the hair is straight.",
               "The person does not appear to have wavy hair.", "The person has straight hair.",
               "Non-wavy", "Not wavy.", "No. The hair appears straight and sleek.",
               "No\n\nNote: the hair looks straight, though the lighting may affect this.",
               "The hair is not wavy.", "No wavy hair is visible.",
               "The person doesn't seem to have wavy hair."],
        "refusal": ["I cannot determine hair texture from this image.",
                    "It's hard to tell from the image.", "I'm sorry, I can't help with that."],
        "unparseable": ["Yes or No", "Yes/No", "The image shows a person wearing a hat.",
                        "Note: the hair is tied back.", "wavy or non-wavy"],
    },
    "bench_facet": {
        "yes": ["Yes, the face is visible.", "Yes, a face is clearly visible.",
                "The face is clearly visible.", "Yes\n\nThe person is facing the camera.",
                "Yes. The person's face can be seen clearly.", "Visible"],
        "no": ["No, the face is not visible.", "The face is not visible.", "No face",
               "No face is visible.", "No visible face.", "No. The person is facing away.",
               "The face is not clearly visible.", "The face is hidden."],
        "refusal": ["I'm unable to tell from this image.", "It is unclear."],
        "unparseable": ["Yes or no", "The person is wearing a helmet.", "Face visibility check"],
    },
}
YES_NO_FORMS = [("{W}", "bare"), ("{W}.", "bare"), ("{w}", "bare"), ("**{W}**", "markdown"),
                ("{WW}", "bare"), ("'{W}'", "quoted"), ('"{W}"', "quoted"),
                ("ASSISTANT: {W}", "residue"), ("{W}</s>", "residue"),
                ("{W}<|eot_id|>", "residue"), ("{PROMPT} {W}", "echo"),
                ("**Answer:** {W}", "markdown"), ("Output: {W}", "echo"),
                ("{W}\n\nPlease note that this is based only on the visible image.", "note"),
                ("I'm not completely sure, but {w}.", "hedge")]


def _yes_no():
    from nhfair_jax.lvlm.tasks import get_task

    for task, cases in YES_NO_TASKS.items():
        t = get_task(task)
        for prompt_set in ("origin", "origin_t17", "variant1", "variant2"):
            prompt = t.prompt_sets[prompt_set]
            for word in ("Yes", "No"):
                for text, source in YES_NO_FORMS:
                    add(task, "yes_no", text.format(W=word, w=word.lower(), WW=word.upper(),
                                                    PROMPT=prompt), word, source,
                        prompt_set=prompt_set)
        for key, expected in (("yes", "Yes"), ("no", "No"), ("refusal", R),
                              ("unparseable", U)):
            for answer in cases[key]:
                source = {"yes": "sentence", "no": "sentence", "refusal": "refusal",
                          "unparseable": "both"}[key]
                if "\n" in answer or "Note" in answer or "However" in answer:
                    source = "note"
                if key == "no" and "not" in answer.lower():
                    source = "negation"
                add(task, "yes_no", answer, expected, source)


_yes_no()


# --- closed label questions (UTKFace gender, Waterbirds) --------------------------------------
CLOSED_FORMS = [("{X}", "bare"), ("{X}.", "bare"), ("{x}", "bare"), ("'{X}'", "quoted"),
                ("**{X}**", "markdown"), ("The person in the photo is {x}.", "sentence"),
                ("{X}. The person has {feature}.", "explained"),
                ("{X}\n\nPlease note that I can't determine someone's gender identity from a "
                 "photo.", "note"),
                ("{PROMPT} {X}", "echo"), ("USER: <image>\n{PROMPT} ASSISTANT: {X}", "residue"),
                ("user\n{PROMPT}\nmodel\n{X}", "residue"),
                ("It's hard to say, but the person appears to be {x}.", "hedge"),
                ("Based on the visible features, I would say {x}, although gender cannot be "
                 "determined from appearance alone.", "hedge")]
FEATURES = ("short hair and a beard", "long hair and earrings", "a round face",
            "glasses and a smile")


def _closed():
    from nhfair_jax.lvlm.tasks import get_task

    prompt = get_task("bench_utkface").prompt_sets["origin"]
    for cls in ("Male", "Female"):
        for k, (text, source) in enumerate(CLOSED_FORMS):
            add("bench_utkface", "closed", text.format(X=cls, x=cls.lower(), PROMPT=prompt,
                                                       feature=FEATURES[k % 4]), cls, source)
    wb = get_task("bench_waterbirds").prompt_sets["origin"]
    for cls in ("Landbird", "Waterbird"):
        for text, source in [("{X}", "bare"), ("{X}.", "bare"), ("**{X}**", "markdown"),
                             ("'{X}'", "quoted"), ("It is a {x}.", "sentence"),
                             ("{PROMPT} {X}", "echo"), ("ASSISTANT: {X}</s>", "residue"),
                             ("{X}\n\nThe bird's features suggest this classification.",
                              "explained")]:
            add("bench_waterbirds", "closed", text.format(X=cls, x=cls.lower(), PROMPT=wb),
                cls, source)


_closed()
for task, answer, expected, source in [
        ("bench_utkface", "Male or female", U, "both"),
        ("bench_utkface", "The person could be male or female.", U, "both"),
        ("bench_utkface", "I'm sorry, but I can't determine someone's gender from a photo.", R,
         "refusal"),
        ("bench_utkface", "As an AI, I don't make assumptions about gender.", R, "refusal"),
        ("bench_utkface", "Sorry, I can't help with that.", R, "refusal"),
        ("bench_utkface", "The person does not appear to be female.", "Male", "negation"),
        ("bench_utkface", "not male", "Female", "negation"),
        ("bench_utkface", "Woman", "Female", "bare"), ("bench_utkface", "A young boy.", "Male",
                                                       "sentence"),
        ("bench_utkface", "Human", U, "off_topic"), ("bench_utkface", "", U, "off_topic"),
        ("bench_utkface", "Unclear", R, "hedge"),
        ("bench_utkface", "Female. Some might read the short hair as male.", "Female",
         "explained"),
        ("bench_waterbirds", "Landbird or waterbird", U, "both"),
        ("bench_waterbirds", "It is a waterbird, a gull.", "Waterbird", "species"),
        ("bench_waterbirds", "A bird", U, "off_topic"),
        ("bench_waterbirds", "Landbird. It is perched on a branch near a lake.", "Landbird",
         "species"),
        ("bench_waterbirds", "Not a waterbird.", "Landbird", "negation")]:
    add(task, "closed", answer, expected, source)


# --- digits (the benchmark's FairFace race question) -----------------------------------------
DIGIT_FORMS = [("{d}", "bare"), ("{d}.", "bare"), ("**{d}**", "markdown"),
               ("{d}: {name}", "explained"), ("{d} ({name})", "explained"),
               ("Category {d}", "sentence"), ("The answer is {d}.", "sentence"),
               ("Answer: {d}", "markdown"), ("{d} - {name}", "explained"),
               ("The corresponding category number is {d}.", "sentence"),
               ("{d}\n\nPlease note that race cannot be reliably determined from a photo.",
                "note"), ("ASSISTANT: {d}", "residue"), ("{d}<|im_end|>", "residue"),
               ("{PROMPT} {d}", "echo"), ("{name}", "bare")]


def _digits():
    from nhfair_jax.lvlm.tasks import FAIRFACE_RACE, get_task

    t = get_task("bench_fairface")
    for prompt_set in ("origin", "variant1", "variant2"):
        for d, name in enumerate(FAIRFACE_RACE):
            for text, source in DIGIT_FORMS:
                add("bench_fairface", "digits", text.format(d=d, name=name,
                                                            PROMPT=t.prompt_sets[prompt_set]),
                    name, source, prompt_set=prompt_set)


_digits()
for answer, expected, source in [
        ("3 or 4", U, "both"), ("0-6", U, "both"), ("10", U, "off_topic"),
        ("0: White, 1: Black, 2: Latino or Hispanic", U, "both"),
        ("3 (Southeast Asian)", U, "both"), ("Asian", U, "off_topic"),
        ("I'm sorry, I can't classify people by race.", R, "refusal"),
        ("I cannot determine a person's race from a photo.", R, "refusal"),
        ("I'm not able to help with identifying someone's race.", R, "refusal"),
        ("The person is in their 20s.", U, "off_topic"),
        ("I would classify the person as 2.", "Latino or Hispanic", "sentence"),
        ("5\n\nHowever, it's important to note that appearance does not determine ethnicity.",
         "Indian", "note")]:
    add("bench_fairface", "digits", answer, expected, source)


# --- open-ended descriptions -----------------------------------------------------------------
GENDER_OPEN = {
    "Male": ["The person in this photo is a young man with short dark hair and a light beard. "
             "He is smiling and wears a blue shirt.",
             "The image shows an elderly gentleman with grey hair and glasses.",
             "A boy, about ten years old, squinting in the sun.",
             "The individual appears to present as male; short haircut, stubble.",
             "This is a close-up portrait of a man in his forties. He has a receding hairline "
             "and a neatly trimmed moustache.",
             "The person has short hair and a strong jawline. He is wearing a dark jacket.",
             "Men's fashion: the person wears a suit and tie; he looks like a businessman.",
             "The photo shows a middle-aged man with a serious expression, photographed "
             "against a white background."],
    "Female": ["This is a woman in her thirties with long brown hair, wearing earrings and a "
               "light touch of makeup.",
               "A little girl with curly hair smiles at the camera.",
               "The person appears to be a lady wearing a headscarf.",
               "The individual presents as female, with long hair pulled back.",
               "The subject, a female, is around 50 years old.",
               "Mature woman, grey hair, wrinkles around the eyes.",
               "She has shoulder-length blonde hair and is wearing a red top.",
               "The person is not a man; she has long hair."],
}


def _open():
    from nhfair_jax.lvlm.tasks import get_task

    openers = ("", "Sure! ", "Certainly. ", "Here is a description: ")
    closers = ("", " The background is plain and the lighting is soft.",
               "\n\nPlease note that gender presentation does not determine how a person "
               "identifies.")
    for cls, texts in GENDER_OPEN.items():
        for text in texts:
            for opener in openers:
                for closer in closers:
                    add("bench_utkface", "open", opener + text + closer, cls, "describe")
    prompt = get_task("bench_utkface").prompt_sets["open"]
    for text in GENDER_OPEN["Female"][:3]:
        add("bench_utkface", "open", prompt + " " + text, "Female", "echo")
    for text in GENDER_OPEN["Male"][:3]:
        add("utkface_gender", "open", text, "Male", "describe", prompt_set="describe")
    for answer, expected in [
            ("A woman holding a baby boy.", U),
            ("The photo shows a man and a woman standing together.", U),
            ("I can't make assumptions about someone's gender, but I can describe the visible "
             "features: short hair, round glasses, a grey sweater.", R),
            ("I'm sorry, I can't help with identifying people in images.", R),
            ("The person has short hair and is wearing a grey sweater. They appear to be in "
             "their twenties.", U),
            ("A portrait of a person in front of a white wall.", U),
            ("This human figure is smiling.", U)]:
        add("bench_utkface", "open", answer, expected, "describe")


_open()
FAIRFACE_OPEN = [
    ("The person appears to be of East Asian descent, possibly Korean, with black hair and a "
     "white shirt.", "East Asian"),
    ("This individual has features commonly associated with people of African descent.",
     "Black"),
    ("The man appears Caucasian, with fair skin and blue eyes.", "White"),
    ("She may be of Indian heritage; she wears a bindi.", "Indian"),
    ("He appears to be Middle Eastern, possibly Arab, with a dark beard.", "Middle Eastern"),
    ("The person could be Hispanic or Latino.", "Latino or Hispanic"),
    ("The woman looks Vietnamese or Thai.", "Southeast Asian"),
    ("The person may be Filipino.", "Southeast Asian"),
    ("The person may be Chinese or Japanese.", "East Asian"),
    ("Persian features: a prominent nose and dark hair.", "Middle Eastern"),
    ("The person looks South Asian, maybe Desi.", "Indian"),
    ("The individual appears to be African American.", "Black"),
    ("The man, perhaps of Latin American origin, wears a black jacket.", "Latino or Hispanic"),
    ("The person could be European or Middle Eastern.", U),
    ("I'm sorry, but I can't determine someone's ethnicity or cultural background from a "
     "photo.", R),
    ("It's not appropriate to infer ethnicity from appearance.", R),
    ("I cannot determine ethnic background from images. The person has black hair and wears a "
     "white t-shirt.", R),
    ("The person has black hair, brown eyes and wears a white shirt against a white "
     "background.", U),
    ("A person with dark skin and short hair.", U),
    ("Asian person with straight black hair.", U),
]
for answer, expected in FAIRFACE_OPEN:
    for opener in ("", "Based on the image, "):
        add("bench_fairface", "open", opener + answer, expected, "describe")

BIRDS = {
    "Waterbird": [("gull", "standing on a rocky shore"), ("mallard", "resting in a forest clearing"),
                  ("pelican", "with a large bill"), ("albatross", "gliding over the ocean"),
                  ("tern", "flying over a bamboo forest"), ("Pacific loon", "on a calm lake"),
                  ("puffin", "with an orange beak"), ("cormorant", "drying its wings"),
                  ("kittiwake", "nesting on a cliff"), ("merganser", "diving for fish"),
                  ("grebe", "among trees"), ("frigatebird", "soaring above the coast"),
                  ("Western Gull", "perched on a branch in the woods"),
                  ("Red-legged Kittiwake", "in a field of grass")],
    "Landbird": [("woodpecker", "clinging to a tree trunk"), ("sparrow", "perched on a branch"),
                 ("warbler", "near a lake"), ("hummingbird", "hovering by a flower"),
                 ("blue jay", "on the shore of a lake"), ("cardinal", "in the snow"),
                 ("Baltimore Oriole", "standing in shallow water"),
                 ("American Crow", "on a beach"), ("Cactus Wren", "on a cactus"),
                 ("flycatcher", "over the water"), ("Bobolink", "in a marsh"),
                 ("kingfisher", "above a river"), ("tanager", "in a bamboo forest"),
                 ("Tree Swallow", "over a pond")],
}
BIRD_FORMS = ["This is a {s} {h}.", "The bird in the image appears to be a {s}, {h}.",
              "**Species:** {s}\n\nThe bird is {h}. It is often seen in open habitats.",
              "The image shows a {s} {h}. Its plumage is well adapted to its environment.",
              "Based on its bill and plumage, this is likely a {s}. It is photographed {h}."]


def _birds():
    for cls, birds in BIRDS.items():
        for s, h in birds:
            for form in BIRD_FORMS:
                add("bench_waterbirds", "open", form.format(s=s, h=h), cls, "species")
    for answer, expected in [
            ("This appears to be a landbird perched on a branch in a forest.", "Landbird"),
            ("A small terrestrial bird with brown plumage foraging on the ground.", "Landbird"),
            ("A landbird next to a lake with a grebe in the background.", U),
            ("The pattern on its wings is striking.", U),
            ("A bird standing near the water's edge.", U),
            ("This bird lives by the lake and the ocean.", U),
            ("This is not a waterbird; it is a small songbird on a fence.", "Landbird"),
            ("It is not a duck.", U),
            ("Aquatic bird wading in shallow water.", "Waterbird"),
            ("A seabird, probably a puffin, with an orange beak.", "Waterbird"),
            ("It looks like a land bird, maybe a warbler.", "Landbird"),
            ("I'm sorry, I cannot identify the bird species.", R)]:
        add("bench_waterbirds", "open", answer, expected, "species")


_birds()
for answer, expected in [
        ("The image shows a nurse in blue scrubs checking a patient's chart.", U),
        ("A skateboarder performs a trick at a skate park.", "skateboarder"),
        ("A guitarist plays on stage under bright lights.", "guitarist"),
        ("A man playing guitar on a stage.", U),
        ("The photo shows a gardener trimming a hedge.", "gardener"),
        ("I'm sorry, I can't describe people in this image.", R)]:
    add("facet_occupation", "open", answer, expected, "describe", prompt_set="describe")
for answer, expected in [("this is a photo of a nurse.", "nurse"), ("nurse", "nurse"),
                         ("a dancer", "dancer"), ("person", U)]:
    add("facet_occupation", "open", answer, expected, "bare", prompt_set="fill_blank")

# Verbs that commit to a letter, contractions of refusals, colour words that describe things.
for asked, answer, expected in [
        ("Male", "It's difficult to tell, but I'd lean towards B.", "No"),
        ("Male", "I'll go for A.", "Yes"), ("Female", "Leaning toward B.", "No"),
        ("Female", "I would go with A here.", "Yes")]:
    add("utkface_gender", "single_choice", answer, expected, "letter", asked=asked)
for task, answer, expected, source in [
        ("utkface_race", "It isn't appropriate to guess someone's race.", R, "refusal"),
        ("facet_age", "It isn't possible to tell someone's age from a photo.", R, "refusal"),
        ("utkface_race", "The person wears a white kurta.", U, "off_topic"),
        ("utkface_race", "A black turban and a white kurta.", U, "off_topic"),
        ("utkface_race", "The person is a white man.", "White", "sentence"),
        ("utkface_race", "She is black.", "Black", "sentence"),
        ("facet_skin_tone", "The person has dark skin.", "dark", "sentence"),
        ("facet_skin_tone", "A light kurta, a medium skin tone.", "medium", "sentence"),
        ("facet_skin_tone", '"light" or "dark"', U, "both")]:
    add(task, "direct", answer, expected, source)
for answer, expected in [
        ("The man wears a white thobe; he appears to be Arab.", "Middle Eastern"),
        ("A Black woman in a white lab coat.", "Black"),
        ("The person, in a black kimono, appears to be Japanese.", "East Asian")]:
    add("bench_fairface", "open", answer, expected, "describe")
