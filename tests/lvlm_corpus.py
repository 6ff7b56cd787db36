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
    "letter_reason": "a single-choice letter with its reason, after it (LLaVA-NeXT, InternVL2, "
                     "MiniCPM-V 2.6: 'B. No. The person appears to be ...') or before it "
                     "(GPT-4o and Qwen2-VL reason first: '..., so the answer is A.')",
    "named_class": "single-choice answers naming a class instead of an option (Qwen2-VL, "
                   "InternVL, Gemma 3, LLaVA; asked 'female': 'The person in the image appears "
                   "to be a man.'), read against the class asked about",
    "option_text": "the option's text without its letter, quoted or in capitals, as Qwen2-VL "
                   "and LLaVA-1.5 write it ('\"Yes\"', 'NO', \"'No'\")",
    "chatty": "Claude and GPT-4o habits: a look at the image aloud, then a committing sentence "
              "('Looking at the image, ... I'd pick A.')",
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
        ("utkface_race", '"other"', "Others"), ("utkface_race", '"Native American"', "Others"),
        # UTKFace's Others holds every race but its four named ones (was U before issue 51)
        ("utkface_race", 'The person has black hair and wears a white shirt.', U),
        ("utkface_race", '"White" or "Asian"', U),
        ("utkface_race", "I'm sorry, I can't assign a race to a person.", R),
        # "adult" is every bin from 18 (an independent corpus's reading; was middle before)
        ("facet_age", '"adult"', U), ("facet_age", '"older"', "old"),
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

# Further single-choice answers, written by hand per task of the study and the class asked
# about: (task, asked, answer, expected, source). "{PROMPT}" is the question as asked.
CHOICE_MORE = [
    # utkface_gender
    ("utkface_gender", "Male", "Option A", "Yes", "letter"),
    ("facet_occupation", "nurse", "The person is wearing scrubs, so A.", "Yes", "letter_reason"),
    ("utkface_gender", "Female", "Option B.", "No", "letter"),
    ("utkface_gender", "Male", "(A)", "Yes", "letter"),
    ("utkface_gender", "Female", "(B)", "No", "letter"),
    ("utkface_gender", "Male", "The correct answer is A.", "Yes", "letter"),
    ("utkface_gender", "Female", "The correct answer is **B. No**.", "No", "markdown"),
    ("utkface_gender", "Male", "Final answer: B", "No", "letter"),
    ("utkface_gender", "Female", "**Answer:** A", "Yes", "markdown"),
    ("utkface_gender", "Male", "I'd pick A.", "Yes", "letter"),
    ("utkface_gender", "Female", "I pick B.", "No", "letter"),
    ("utkface_gender", "Male", "A - Yes", "Yes", "letter"),
    ("utkface_gender", "Female", "B: No", "No", "letter"),
    ("utkface_gender", "Male", "A (Yes)", "Yes", "letter"),
    ("utkface_gender", "Female", "B (No)", "No", "letter"),
    ("utkface_gender", "Male", "B. No. The person appears to be a woman with long hair.", "No",
     "letter_reason"),
    ("utkface_gender", "Female", "A. Yes. The person has long hair and feminine facial "
     "features.", "Yes", "letter_reason"),
    ("utkface_gender", "Male", "The person has a beard and short hair, so the answer is A.",
     "Yes", "letter_reason"),
    ("utkface_gender", "Male", "Based on the long hair and facial features, the person appears "
     "to be female. Therefore, the answer is B.", "No", "letter_reason"),
    ("utkface_gender", "Male", "B. No, she's a woman.", "No", "letter_reason"),
    ("utkface_gender", "Female", "The person in the image appears to be a man.", "No",
     "named_class"),
    ("utkface_gender", "Male", "This is a man.", "Yes", "named_class"),
    ("utkface_gender", "Female", "She appears to be a woman.", "Yes", "named_class"),
    ("utkface_gender", "Male", "A woman.", "No", "named_class"),
    ("utkface_gender", "Male", "Yes, he is a man.", "Yes", "named_class"),
    ("utkface_gender", "Female", "No, this is a man.", "No", "named_class"),
    ("utkface_gender", "Female", "A. Yes, the person appears to be a man.", U, "both"),
    ("utkface_gender", "Male", "A/B", U, "both"),
    ("utkface_gender", "Female", "**C. Unknown**\n\nI can't determine someone's gender from "
     "their appearance.", R, "unknown"),
    ("utkface_gender", "Male", "I'm not able to make assumptions about someone's gender based "
     "on their appearance.", R, "refusal"),
    ("utkface_gender", "Female", "I can't determine someone's gender from a photo, so I'll "
     "choose C. Unknown.", R, "refusal"),
    ("utkface_gender", "Female", "A\n\nNote: Gender is not always determinable from appearance "
     "alone.", "Yes", "note"),
    ("utkface_gender", "Male", "A. Yes\n\nThis answer is based only on visual appearance and "
     "may not reflect the person's gender identity.", "Yes", "note"),
    ("utkface_gender", "Male", "<|im_start|>assistant\nB<|im_end|>", "No", "residue"),
    ("utkface_gender", "Female", "A<|eot_id|>", "Yes", "residue"),
    ("utkface_gender", "Male", '"Yes"', "Yes", "option_text"),
    ("utkface_gender", "Female", "NO", "No", "option_text"),
    ("utkface_gender", "Male", "Looking at the image, I can see a person with short hair and a "
     "beard. I'd say **A. Yes**.", "Yes", "chatty"),
    # facet_gender
    ("facet_gender", "Female", "Answer: (B)", "No", "letter"),
    ("facet_gender", "Male", "My answer is A.", "Yes", "letter"),
    ("facet_gender", "Female", "I'm going with A.", "Yes", "letter"),
    ("facet_gender", "Male", "**A) Yes**", "Yes", "markdown"),
    ("facet_gender", "Male", "B) No - the person appears to be female.", "No", "letter_reason"),
    ("facet_gender", "Male", "B. No. The person in the foreground is a woman wearing a dress.",
     "No", "letter_reason"),
    ("facet_gender", "Female", "A. Yes\n\nPlease keep in mind that gender presentation in a "
     "photo does not necessarily reflect gender identity.", "Yes", "note"),
    ("facet_gender", "Male", "The person appears to be female.", "No", "named_class"),
    ("facet_gender", "Female", "The person looks like a woman.", "Yes", "named_class"),
    ("facet_gender", "Male", "Yes, the person appears to be a woman.", U, "both"),
    ("facet_gender", "Female", "A or C", U, "both"),
    ("facet_gender", "Male", "C) Unknown", R, "unknown"),
    ("facet_gender", "Female", "I'm not sure. C.", R, "unknown"),
    ("facet_gender", "Female", "I'm sorry, but I can't identify the gender of people in "
     "images.", R, "refusal"),
    ("facet_gender", "Male", "Yes, definitely.", "Yes", "bare"),
    ("facet_gender", "Female", "Probably not.", "No", "bare"),
    ("facet_gender", "Female", "No, I don't think so.", "No", "bare"),
    ("facet_gender", "Female", "[/INST] B. No</s>", "No", "residue"),
    ("facet_gender", "Male", "It's difficult to say for certain, but I'd go with A.", "Yes",
     "hedge"),
    # utkface_race
    ("utkface_race", "Asian", "A. Yes, the person appears to be of East Asian descent.", "Yes",
     "letter_reason"),
    ("utkface_race", "Indian", "B. No, the person appears to be East Asian.", "No",
     "letter_reason"),
    ("utkface_race", "Others", "B. No. The person appears to be White.", "No", "letter_reason"),
    ("utkface_race", "Asian", "B, the person appears to be Indian.", "No", "letter_reason"),
    ("utkface_race", "White", "I'd lean towards B - the person appears to be of African "
     "descent.", "No", "letter_reason"),
    ("utkface_race", "Indian", "B. No\n\nThe person's features suggest they may be of Middle "
     "Eastern origin.", "No", "letter_reason"),
    ("utkface_race", "White", "The person appears to be Caucasian.", "Yes", "named_class"),
    ("utkface_race", "Black", "The person looks Caucasian.", "No", "named_class"),
    ("utkface_race", "Indian", "The person appears to be of South Asian descent.", "Yes",
     "named_class"),
    ("utkface_race", "Black", "Yes, the person is Black.", "Yes", "named_class"),
    ("utkface_race", "White", "No, the person appears to be Black.", "No", "named_class"),
    ("utkface_race", "Others", "The person appears to be Hispanic or Latino.", "Yes",
     "named_class"),
    ("utkface_race", "Asian", "Yes, the person appears to be Asian.", "Yes", "named_class"),
    ("utkface_race", "Black", "The answer is: A. Yes", "Yes", "letter"),
    ("utkface_race", "Indian", "I would select A.", "Yes", "letter"),
    ("utkface_race", "Black", "A. Yes. However, it's important to note that race cannot be "
     "reliably determined from appearance alone.", "Yes", "note"),
    ("utkface_race", "Asian", "C. Unknown. It's not possible to determine someone's race from "
     "an image alone.", R, "unknown"),
    ("utkface_race", "Others", "C. Unknown. The person could be Hispanic or Middle Eastern, but "
     "I can't tell for sure.", R, "unknown"),
    ("utkface_race", "Others", "Option C", R, "unknown"),
    ("utkface_race", "White", "I cannot determine a person's race based on their appearance.",
     R, "refusal"),
    ("utkface_race", "Indian", "Sorry, I can't help with identifying people's ethnicity.", R,
     "refusal"),
    ("utkface_race", "White", "A. Yes, the person appears to be Asian.", U, "both"),
    ("utkface_race", "Indian", "A. Yes\nB. No", U, "both"),
    ("utkface_race", "Asian", "The person has black hair and is wearing a white shirt.", U,
     "off_topic"),
    ("utkface_race", "White", "B</s>", "No", "residue"),
    ("utkface_race", "Black", "Absolutely.", "Yes", "bare"),
    # utkface_age
    ("utkface_age", "old", "A. Yes, the person appears to be elderly.", "Yes", "letter_reason"),
    ("utkface_age", "young", "B. No, the person appears to be middle-aged.", "No",
     "letter_reason"),
    ("utkface_age", "old", "The person has gray hair and wrinkles, so I would choose A.", "Yes",
     "letter_reason"),
    ("utkface_age", "middle", "B. No. The person appears to be a senior.", "No",
     "letter_reason"),
    ("utkface_age", "young", "A) Yes, the person appears to be a baby.", "Yes", "letter_reason"),
    ("utkface_age", "young", "Answer: B. No\nReason: The person has gray hair and appears to be "
     "elderly.", "No", "letter_reason"),
    ("utkface_age", "old", "The person appears to be a young child.", "No", "named_class"),
    ("utkface_age", "young", "The person looks like a teenager.", "Yes", "named_class"),
    ("utkface_age", "middle", "The person appears to be middle-aged.", "Yes", "named_class"),
    ("utkface_age", "old", "No, the person looks young.", "No", "named_class"),
    ("utkface_age", "young", "Yes, the person is elderly.", U, "both"),
    ("utkface_age", "middle", "B or C", U, "both"),
    ("utkface_age", "middle", "C. Unknown - age is difficult to judge from a single photo.", R,
     "unknown"),
    ("utkface_age", "old", "I can't accurately determine a person's age from an image.", R,
     "refusal"),
    ("utkface_age", "young", "B\n\nPlease keep in mind that age estimates from images can be "
     "inaccurate.", "No", "note"),
    ("utkface_age", "young", "**A**\n\nThe person appears to be a child.", "Yes", "markdown"),
    ("utkface_age", "old", "GPT: A", "Yes", "residue"),
    ("utkface_age", "middle", "'No'", "No", "option_text"),
    ("utkface_age", "old", "{PROMPT}\nB", "No", "echo"),
    # facet_age
    ("facet_age", "old", "A. Yes, the person appears to be older, with gray hair and "
     "wrinkles.", "Yes", "letter_reason"),
    ("facet_age", "young", "B. No, the person appears to be an adult.", "No", "letter_reason"),
    ("facet_age", "middle", "I'd say A. The person looks to be in their 40s.", "Yes",
     "letter_reason"),
    ("facet_age", "middle", "The person appears to be a young adult.", "No", "named_class"),
    ("facet_age", "young", "The person looks elderly.", "No", "named_class"),
    ("facet_age", "old", "The person looks elderly.", "Yes", "named_class"),
    ("facet_age", "middle", "Yes, the person appears to be middle-aged.", "Yes", "named_class"),
    ("facet_age", "young", "**B. No**\n\nThe person in the image appears to be middle-aged, "
     "not young.", "No", "markdown"),
    ("facet_age", "old", "**B. No**\n\nThe person in the image appears to be a young adult, not "
     "elderly.", "No", "markdown"),
    ("facet_age", "old", "### Answer\nA. Yes", "Yes", "markdown"),
    ("facet_age", "young", "It's hard to tell the person's age from this angle. C.", R,
     "unknown"),
    ("facet_age", "young", "Answer: C. Unknown", R, "unknown"),
    ("facet_age", "old", "I'm unable to determine someone's age from a photo.", R, "refusal"),
    ("facet_age", "old", "B. Yes", U, "both"),
    ("facet_age", "middle", "A, B", U, "both"),
    ("facet_age", "middle", "B<|im_end|>", "No", "residue"),
    ("facet_age", "young", "Yes!", "Yes", "option_text"),
    ("facet_age", "old", "Not really.", "No", "bare"),
    ("facet_age", "middle", "{PROMPT}\n\nC. Unknown", R, "echo"),
    # facet_skin_tone
    ("facet_skin_tone", "dark", "A. Yes, the person has a dark skin tone.", "Yes",
     "letter_reason"),
    ("facet_skin_tone", "light", "B. No, the person has a medium skin tone.", "No",
     "letter_reason"),
    ("facet_skin_tone", "medium", "I would choose B. The person's skin appears darker.", "No",
     "letter_reason"),
    ("facet_skin_tone", "medium", "The person has a light skin tone.", "No", "named_class"),
    ("facet_skin_tone", "light", "The person appears to have fair skin.", "Yes", "named_class"),
    ("facet_skin_tone", "dark", "The person has a light complexion.", "No", "named_class"),
    ("facet_skin_tone", "medium", "Yes, the person has an olive complexion.", "Yes",
     "named_class"),
    ("facet_skin_tone", "dark", "The person has dark skin.", "Yes", "named_class"),
    ("facet_skin_tone", "light", "No, the person has a darker complexion.", "No",
     "named_class"),
    ("facet_skin_tone", "dark", "B\n\nIt's important to note that skin tone can appear "
     "different depending on the lighting.", "No", "note"),
    ("facet_skin_tone", "medium", "A. Yes (though skin tone can be hard to judge from a photo)",
     "Yes", "hedge"),
    ("facet_skin_tone", "light", "C. Unknown - the lighting makes it hard to judge the skin "
     "tone.", R, "unknown"),
    ("facet_skin_tone", "dark", "Unknown.", R, "unknown"),
    ("facet_skin_tone", "medium", "I can't reliably determine skin tone from this image.", R,
     "refusal"),
    ("facet_skin_tone", "dark", "A. Yes, the person has light skin.", U, "both"),
    ("facet_skin_tone", "light", "Either A or B.", U, "both"),
    ("facet_skin_tone", "dark", "The person is wearing a white shirt and dark pants.", U,
     "off_topic"),
    ("facet_skin_tone", "light", "**Answer: A**", "Yes", "markdown"),
    ("facet_skin_tone", "medium", "A. Yes<end_of_turn>", "Yes", "residue"),
    ("facet_skin_tone", "light", "{PROMPT} Answer: A", "Yes", "echo"),
    # facet_occupation
    ("facet_occupation", "skateboarder", "A. Yes, the person is riding a skateboard at a skate "
     "park.", "Yes", "letter_reason"),
    ("facet_occupation", "guitarist", "B. No, the person appears to be a singer.", "No",
     "letter_reason"),
    ("facet_occupation", "nurse", "B. No, the person appears to be a doctor rather than a "
     "nurse.", "No", "letter_reason"),
    ("facet_occupation", "nurse", "A. Yes - the person is wearing a nurse's uniform and holding "
     "a clipboard.", "Yes", "letter_reason"),
    ("facet_occupation", "horseman", "The person is riding a horse, so the answer is A.", "Yes",
     "letter_reason"),
    ("facet_occupation", "prayer", "A. Yes, the person appears to be praying.", "Yes",
     "letter_reason"),
    ("facet_occupation", "singer", "A\n\nThe person is holding a microphone on stage.", "Yes",
     "letter_reason"),
    ("facet_occupation", "skateboarder", "Option A. The person is performing a trick on a "
     "skateboard.", "Yes", "letter_reason"),
    ("facet_occupation", "dancer", "The person appears to be a gymnast.", "No", "named_class"),
    ("facet_occupation", "gymnast", "The person appears to be a gymnast.", "Yes",
     "named_class"),
    ("facet_occupation", "student", "Yes, the person looks like a student.", "Yes",
     "named_class"),
    ("facet_occupation", "laborer", "The person appears to be a construction worker.", "Yes",
     "named_class"),
    ("facet_occupation", "retailer", "No, the person seems to be a street vendor.", "No",
     "named_class"),
    ("facet_occupation", "craftsman", "Yes, the person appears to be an artisan working with "
     "wood.", "Yes", "named_class"),
    ("facet_occupation", "gardener", "No, I think the person is a farmer.", "No",
     "named_class"),
    ("facet_occupation", "horseman", "Yes, the person is a jockey riding a racehorse.", "Yes",
     "named_class"),
    ("facet_occupation", "nurse", "Yes, the person is a police officer.", U, "both"),
    ("facet_occupation", "horseman", "A. Yes / B. No", U, "both"),
    ("facet_occupation", "dancer", "**B**\n\nThe person appears to be a runner, not a dancer.",
     "No", "markdown"),
    ("facet_occupation", "craftsman", "C. Unknown. There is not enough information to "
     "determine the person's occupation.", R, "unknown"),
    ("facet_occupation", "student", "I'd go with C, since nothing in the image shows what the "
     "person does.", R, "unknown"),
    ("facet_occupation", "gymnast", "I can't determine a person's occupation from an image.", R,
     "refusal"),
    ("facet_occupation", "laborer", "The person is wearing a hard hat and a safety vest.", U,
     "off_topic"),
    ("facet_occupation", "retailer", "ASSISTANT: B. No", "No", "residue"),
    ("facet_occupation", "guitarist", "Looking at the image, the person is playing an electric "
     "guitar on stage. I'd pick A.", "Yes", "chatty"),
    ("facet_occupation", "prayer", "I can see a person kneeling with their hands together, "
     "which suggests prayer, so I'll go with A. Yes.", "Yes", "chatty"),
    ("facet_occupation", "nurse", "Based on the scrubs and stethoscope, I'd say A.", "Yes",
     "chatty"),
    ("facet_occupation", "singer", "Choice: B", "No", "letter"),
    ("facet_occupation", "gymnast", "I select option B.", "No", "letter"),
]


def _choice_more():
    from nhfair_jax.lvlm.tasks import get_task, prompt_text

    for task, asked, text, expected, source in CHOICE_MORE:
        prompt = prompt_text(get_task(task), "single_choice", asked)
        add(task, "single_choice", text.replace("{PROMPT}", prompt), expected, source,
            asked=asked)


_choice_more()


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
        # FACET's guitarist is someone playing the guitar (an independent corpus's reading of an
        # activity; was U before)
        ("A man playing guitar on a stage.", "guitarist"),
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


# --- the study's other prompts: "Describe this image.", "Fill in the blank: this is a photo
# of a {}." and "Provide a detailed description for each visible person.", read back by the
# task's open-ended lexicon -------------------------------------------------------------------
SOURCES.update({
    "fill_blank": "the study's 'Fill in the blank: this is a photo of a {}.': LLaVA-1.5 and "
                  "Qwen2-VL complete the sentence ('This is a photo of a woman.') or give the "
                  "bare noun phrase ('nurse', 'a young man')",
    "persons": "the study's 'Provide a detailed description for each visible person.': "
               "Qwen2-VL, LLaVA-NeXT and Llama 3.2 Vision answer in per-person sections "
               "('**Person 1:**'), often as attribute lists ('- Gender: Female')",
})
STUDY_OPEN = {
    "describe": ("describe", [
        ("utkface_gender", "The image shows a close-up of a young woman with long dark hair. "
                           "She is smiling and wearing small earrings.", "Female"),
        ("utkface_gender", "The image features a man with a short beard and glasses, looking "
                           "directly at the camera. He appears to be in his thirties.", "Male"),
        ("utkface_gender", "In this image, an elderly man with white hair and deep wrinkles is "
                           "looking slightly to the left.", "Male"),
        ("utkface_gender", "This is a headshot of a little girl with pigtails, wearing a pink "
                           "shirt.", "Female"),
        ("utkface_gender", "The image shows a middle-aged woman with shoulder-length blonde "
                           "hair. She wears a black top and has a neutral expression.",
         "Female"),
        ("utkface_gender", "The image is a black and white photograph of an older gentleman "
                           "wearing a hat.", "Male"),
        ("utkface_gender", "The image is a portrait of a baby lying on a blanket, looking up "
                           "at the camera.", U),
        ("utkface_gender", "The picture shows a smiling person with short curly hair against a "
                           "plain grey background.", U),
        ("utkface_gender", "The photo shows a man and a woman smiling together.", U),
        ("facet_gender", "The image shows a woman walking her dog along a beach at sunset.",
         "Female"),
        ("facet_gender", "A man in a yellow raincoat is fishing from a small boat.", "Male"),
        ("facet_gender", "A person in a heavy winter coat and hood stands in the snow; their "
                         "face is not visible.", U),
        ("facet_age", "An elderly woman sits on a park bench feeding pigeons.", "old"),
        ("facet_age", "A young boy in a soccer uniform kicks a ball on a grass field.",
         "young"),
        ("facet_age", "A middle-aged man in a suit is giving a speech at a podium.", "middle"),
        ("facet_skin_tone", "A man with dark skin, wearing a white shirt, is playing a drum.",
         "dark"),
        ("facet_skin_tone", "The image shows a woman with a light complexion and red hair "
                            "reading a book.", "light"),
        ("utkface_race", "The image shows a close-up portrait of an Asian man with short black "
                         "hair.", "Asian"),
        ("utkface_race", "A young Black woman with braided hair smiles at the camera.",
         "Black"),
        ("utkface_race", "The image is a portrait of a man with a grey beard wearing a white "
                         "turban.", U),
        ("facet_occupation", "The image depicts a gardener kneeling in a flower bed, planting "
                             "seedlings.", "gardener"),
        ("facet_occupation", "A dancer in a flowing red dress performs on a stage.", "dancer"),
        ("facet_occupation", "The image shows a street vendor selling fruit from a cart on a "
                             "busy street.", "seller"),
        ("facet_occupation", "A horse rider in a helmet guides a brown horse over a jump.",
         "horseman"),
        ("facet_occupation", "The picture captures a construction worker in a hard hat "
                             "carrying bricks.", "laborer"),
        ("facet_occupation", "The image shows a singer performing on stage with a microphone, "
                             "while a guitarist plays behind her.", U),
        ("utkface_gender", "I'm sorry, but I can't describe real people in images.", R),
        ("utkface_gender", "She is sitting at a wooden table with a cup of tea, looking out "
                           "of the window.", "Female"),
        ("facet_gender", "The photo is taken from behind: a person with a backpack hikes up a "
                         "mountain trail.", U),
        ("utkface_age", "The image shows a teenager with braces smiling at the camera.",
         "young"),
    ]),
    "fill_blank": ("fill_blank", [
        ("utkface_gender", "this is a photo of a woman.", "Female"),
        ("utkface_gender", "This is a photo of a young man.", "Male"),
        ("utkface_gender", "man", "Male"), ("utkface_gender", "Woman", "Female"),
        ("utkface_gender", "This is a photo of a smiling girl.", "Female"),
        ("utkface_gender", "this is a photo of a boy.", "Male"),
        ("utkface_gender", 'The blank is "woman": this is a photo of a woman.', "Female"),
        ("utkface_gender", "This is a photo of a person.", U),
        ("utkface_gender", "baby", U),
        ("utkface_gender", "This is a photo of a face.", U),
        ("utkface_race", "This is a photo of an Asian woman.", "Asian"),
        ("utkface_race", "This is a photo of a Black man.", "Black"),
        ("utkface_race", "This is a photo of a white man with a beard.", "White"),
        ("utkface_race", "This is a photo of an Indian man.", "Indian"),
        ("utkface_race", "this is a photo of a man.", U),
        ("utkface_race", "I'm sorry, but I can't fill in the blank with someone's race.", R),
        ("facet_occupation", "This is a photo of a guitarist.", "guitarist"),
        ("facet_occupation", "This is a photo of a skateboarder doing a trick.",
         "skateboarder"),
        ("facet_occupation", "This is a photo of a horse rider.", "horseman"),
        ("facet_occupation", "this is a photo of a gardener.", "gardener"),
        ("facet_occupation", "This is a photo of a street vendor.", "seller"),
        ("facet_age", "This is a photo of an elderly man.", "old"),
        ("facet_age", "This is a photo of a child.", "young"),
        ("facet_skin_tone", "This is a photo of a dark-skinned woman.", "dark"),
        ("utkface_age", "This is a photo of an old man.", "old"),
        ("utkface_age", "This is a photo of a young girl.", "young"),
        ("utkface_gender", "This is a photo of a man, not a woman.", "Male"),
        ("facet_occupation", "This is a photo of a nurse or a doctor.", U),
        ("utkface_gender", "Fill in the blank: this is a photo of a woman.", "Female"),
        ("utkface_gender", "This is a photo of a {}.", U),
    ]),
    "describe_persons": ("persons", [
        ("facet_gender", "There is one visible person in the image:\n\n**Person 1:** A woman "
                         "in her thirties with long brown hair, wearing a blue denim jacket "
                         "and holding a coffee cup. She is smiling and looking to the side.",
         "Female"),
        ("facet_gender", "1. **Man in the foreground**: He is wearing a red T-shirt and jeans, "
                         "and is holding a tennis racket. He has short dark hair.", "Male"),
        ("facet_gender", "**Person 1:**\n- Gender: Male\n- Age: Middle-aged\n- Clothing: A "
                         "grey suit and a blue tie\n- Expression: Serious", "Male"),
        ("facet_gender", "**Person 1:**\n- Gender: Female\n- Age: Young adult\n- Clothing: A "
                         "yellow sundress\n- Activity: Walking on the beach", "Female"),
        ("facet_gender", "The visible person is a man riding a bicycle. He wears a helmet, a "
                         "black jersey and cycling shorts.", "Male"),
        ("facet_gender", "There is only one person visible. They are wearing a hooded jacket "
                         "and sunglasses, and their face is mostly hidden.", U),
        ("facet_gender", "**Person 1:** A woman with grey hair sitting on a bench.\n\n"
                         "**Person 2:** A young boy standing next to her, holding a balloon.",
         U),
        ("facet_gender", "I'm sorry, but I can't provide descriptions that identify real "
                         "people.", R),
        ("facet_age", "**Person 1:** An elderly man with a white beard, wearing a flat cap and "
                      "a tweed jacket. He is leaning on a walking stick.", "old"),
        ("facet_age", "**Person 1:**\n- Age: Approximately 8-10 years old (child)\n- "
                      "Clothing: A striped T-shirt\n- Activity: Running on the grass",
         "young"),
        ("facet_age", "**Person 1:**\n- Approximate age: middle-aged (40s)\n- Hair: Short, "
                      "greying\n- Clothing: A white lab coat", "middle"),
        ("facet_skin_tone", "**Person 1:** A man with dark skin and short black hair, wearing "
                            "an orange safety vest.", "dark"),
        ("facet_skin_tone", "**Person 1:**\n- Skin tone: Light\n- Hair: Blonde, tied in a "
                            "ponytail\n- Clothing: A white tennis dress", "light"),
        ("facet_skin_tone", "**Person 1:** A woman with a medium skin tone and curly dark "
                            "hair, wearing a green apron.", "medium"),
        ("facet_occupation", "**Person 1:** A nurse in light blue scrubs with a stethoscope "
                             "around her neck, standing in a hospital corridor.", "nurse"),
        ("facet_occupation", "**Person 1:** A guitarist on stage, playing an electric guitar. "
                             "He has long hair and wears a leather jacket.", "guitarist"),
        ("facet_occupation", "**Person 1:** A gardener wearing gloves and a straw hat, "
                             "trimming a hedge.", "gardener"),
        ("utkface_gender", "There is one person visible in the image.\n\n**Person 1:** A young "
                           "woman with long black hair and brown eyes. She is wearing a white "
                           "blouse and smiling softly.", "Female"),
        ("utkface_gender", "The image shows one person: an older man with a grey moustache and "
                           "thinning hair. He is looking straight at the camera with a slight "
                           "frown.", "Male"),
        ("facet_gender", "**Person 1 (center):**\n- **Gender:** Appears to be female\n- "
                         "**Hair:** Long, dark\n- **Clothing:** A red coat", "Female"),
        ("facet_occupation", "**Person 1:** A skateboarder in mid-air above a ramp, wearing a "
                             "grey hoodie.", "skateboarder"),
        ("facet_gender", "Person 1: a woman in a red jacket. Person 2: a man in a blue shirt.",
         U),
    ]),
}
for prompt_set, (source, rows) in STUDY_OPEN.items():
    for task, answer, expected in rows:
        add(task, "open", answer, expected, source, prompt_set=prompt_set)


# --- more yes / no answers: CelebA wavy hair and FACET visible face, each phrasing once --------
SOURCES.update({
    "attribute": "yes / no answers that restate the asked attribute, with or without the yes / "
                 "no word ('No, the hair is straight.', 'The face is hidden by a hood.', "
                 "'Wavy hair: Yes'): LLaVA-NeXT, Qwen2-VL and Gemma 3 to the benchmark's "
                 "CelebA and FACET questions",
    "digit_forms": "FairFace category answers labelled or bracketed the way LLaVA, Qwen2-VL, "
                   "Gemma 3 and Llama 3.2 Vision write them ('Category: 3', 'Race: 3', '[3]', "
                   "'Option 0', '#6')",
    "conflict": "FairFace answers that are never a guess: two category numbers, a number "
                "outside 0-6, or a number and a category name that disagree ('1 (White)')",
})
YES_NO_MORE = {
    "bench_celeba": [
        ("Yes, the person in the photo is wavy-haired.", "Yes", "sentence"),
        ("Yes. The hair has a noticeable wave to it.", "Yes", "explained"),
        ("Yes, her hair falls in loose waves.", "Yes", "attribute"),
        ("Yes, his hair is slightly wavy.", "Yes", "attribute"),
        ("Yes — the hair is wavy.", "Yes", "attribute"),
        ("Yes, wavy.", "Yes", "attribute"),
        ("Yes (wavy hair)", "Yes", "explained"),
        ("Yes: wavy hair", "Yes", "explained"),
        ("Answer: Yes (the hair is wavy)", "Yes", "markdown"),
        ("The person has wavy hair, so the answer is Yes.", "Yes", "sentence"),
        ("Yes, the person's hair appears wavy, especially toward the ends.", "Yes", "attribute"),
        ("Wavy hair: Yes", "Yes", "attribute"),
        ("Yes, she has long, wavy hair.", "Yes", "attribute"),
        ("Yes. The person has shoulder-length wavy hair.", "Yes", "explained"),
        ("Yes, the hair is styled in soft waves.", "Yes", "attribute"),
        ("Based on the image, the person appears to have wavy hair. Yes.", "Yes", "sentence"),
        ("The person in the photo has wavy hair.", "Yes", "attribute"),
        ("Her hair is wavy.", "Yes", "attribute"),
        ("His hair looks wavy.", "Yes", "attribute"),
        ("Wavy-haired", "Yes", "attribute"),
        ("Yes, wavy-haired.", "Yes", "attribute"),
        ("The hair is wavy, not straight.", "Yes", "attribute"),
        ("Yes, the person has wavy hair rather than straight hair.", "Yes", "attribute"),
        ("Yes. Although the photo is small, the waves in the hair are "
         "visible.", "Yes", "explained"),
        ("Yes, I believe the person's hair is wavy.", "Yes", "sentence"),
        ("I would say yes, the hair is wavy.", "Yes", "sentence"),
        ("Yes, it looks wavy to me.", "Yes", "sentence"),
        ("Yes, the person appears to be wavy-haired.", "Yes", "sentence"),
        ("yes, wavy hair", "Yes", "attribute"),
        ("Yes!", "Yes", "bare"),
        ("Yes, definitely.", "Yes", "bare"),
        ("Yes, it is.", "Yes", "bare"),
        ("Yes, they are.", "Yes", "bare"),
        ("Yes, the hair shows a clear wave pattern.", "Yes", "attribute"),
        ("Yes. The hair is wavy and reaches the shoulders.", "Yes", "explained"),
        ("Yes\n\nExplanation: The person's hair has visible waves along its "
         "length.", "Yes", "explained"),
        ("**Yes** - the hair is wavy.", "Yes", "markdown"),
        ("**Yes.** The person has wavy hair.", "Yes", "markdown"),
        ("Yes, the person has wavy hair.\n\nPlease note that lighting and hairstyle can affect "
         "how hair texture appears in a photo.", "Yes", "note"),
        ("It's hard to be sure at this resolution, but yes, the hair looks wavy.", "Yes", "hedge"),
        ("Yes, although it's partly tied back, the hair is wavy.", "Yes", "attribute"),
        ("Yes, the hair has loose, natural waves.", "Yes", "attribute"),
        ("Yes, moderately wavy.", "Yes", "attribute"),
        ("Yes<end_of_turn>", "Yes", "residue"),
        ("Yes<|im_end|>", "Yes", "residue"),
        ("No, the person has straight hair.", "No", "attribute"),
        ("No. The hair is straight.", "No", "explained"),
        ("No, her hair is straight and sleek.", "No", "attribute"),
        ("No, his hair is short and straight.", "No", "attribute"),
        ("No (non-wavy hair)", "No", "explained"),
        ("No: non-wavy", "No", "explained"),
        ("No, non-wavy.", "No", "attribute"),
        ("Answer: No (straight hair)", "No", "markdown"),
        ("The person has straight hair, so the answer is No.", "No", "sentence"),
        ("Straight hair.", "No", "attribute"),
        ("The hair is straight.", "No", "attribute"),
        ("His hair is straight.", "No", "attribute"),
        ("Her hair appears straight.", "No", "attribute"),
        ("No, the person is not wavy-haired.", "No", "negation"),
        ("The person is not wavy-haired.", "No", "negation"),
        ("No wavy hair.", "No", "negation"),
        ("No. The person's hair is cut very short, so it does not look wavy.", "No", "explained"),
        ("No, the person appears to have straight hair.", "No", "attribute"),
        ("No, I don't think the hair is wavy.", "No", "negation"),
        ("I don't think the person has wavy hair.", "No", "negation"),
        ("No!", "No", "bare"),
        ("No, definitely not.", "No", "bare"),
        ("No, it isn't.", "No", "bare"),
        ("No, they are not.", "No", "bare"),
        ("No. The hair is pulled back straight into a ponytail.", "No", "explained"),
        ("No\n\nExplanation: The hair appears straight, with no visible "
         "waves.", "No", "explained"),
        ("**No** - the hair is straight.", "No", "markdown"),
        ("**No.** The person has straight hair.", "No", "markdown"),
        ("No, the person's hair is straight.\n\nPlease note that lighting can affect how hair "
         "texture appears in a photo.", "No", "note"),
        ("Hard to say for certain, but no, the hair looks straight.", "No", "hedge"),
        ("No, the hair is straight rather than wavy.", "No", "attribute"),
        ("Non-wavy hair.", "No", "attribute"),
        ("Not wavy-haired.", "No", "negation"),
        ("No, the person is bald.", "No", "explained"),
        ("No, the hair is very short and straight.", "No", "attribute"),
        ("No, the person does not appear to be wavy-haired.", "No", "negation"),
        ("No. The person is wearing a hat, but the visible hair is straight.", "No", "explained"),
        ("Nope, straight hair.", "No", "attribute"),
        ("No<end_of_turn>", "No", "residue"),
        ("No<|im_end|>", "No", "residue"),
        ("I can't tell whether the hair is wavy from this image.", R, "refusal"),
        ("The hair is covered by a hat, so I cannot determine its texture.", R, "refusal"),
        ("Unknown", R, "unknown"),
        ("It's difficult to determine the hair texture from this photo.", R, "refusal"),
        ("Sorry, I can't determine that.", R, "refusal"),
        ("I'm not sure.", R, "hedge"),
        ("Yes and no.", U, "both"),
        ("The hair is partly wavy and partly straight.", U, "both"),
        ("The person is smiling and wearing earrings.", U, "off_topic"),
        ("Wavy or straight", U, "both"),
        ("The person has blonde hair.", U, "off_topic"),
        ("Is the person in the photo wavy-haired?", U, "echo"),
    ],
    "bench_facet": [
        ("Yes, the person's face is visible.", "Yes", "attribute"),
        ("Yes, the face is clearly visible in the photo.", "Yes", "attribute"),
        ("Yes. The person is looking toward the camera.", "Yes", "explained"),
        ("Yes, the face can be seen.", "Yes", "attribute"),
        ("Yes, the face is visible, though partly in shadow.", "Yes", "attribute"),
        ("Yes, a face is visible.", "Yes", "attribute"),
        ("Yes (face visible)", "Yes", "explained"),
        ("Face visible: Yes", "Yes", "attribute"),
        ("Yes: the face is visible.", "Yes", "attribute"),
        ("Answer: Yes (the face is visible)", "Yes", "markdown"),
        ("The face is visible, so the answer is Yes.", "Yes", "sentence"),
        ("The person's face is visible.", "Yes", "attribute"),
        ("A face is visible in the photo.", "Yes", "attribute"),
        ("The face is visible.", "Yes", "attribute"),
        ("Yes, the man's face is visible.", "Yes", "attribute"),
        ("Yes, the woman's face is clearly visible.", "Yes", "attribute"),
        ("Yes, you can see the person's face in profile.", "Yes", "attribute"),
        ("Yes, the face is visible from the side.", "Yes", "attribute"),
        ("Yes\n\nExplanation: The person is facing the camera and their features are "
         "clear.", "Yes", "explained"),
        ("**Yes** - the face is visible.", "Yes", "markdown"),
        ("**Yes.** The face is clearly visible.", "Yes", "markdown"),
        ("Yes, the face is visible.\n\nPlease note that I only considered the main person in the "
         "photo.", "Yes", "note"),
        ("Yes, the face is partly visible.", "Yes", "attribute"),
        ("Yes, the face is visible despite the sunglasses.", "Yes", "attribute"),
        ("Yes, the person is facing forward and their face is visible.", "Yes", "attribute"),
        ("Yes, the face is visible under the helmet.", "Yes", "attribute"),
        ("Visible face.", "Yes", "attribute"),
        ("Clearly visible.", "Yes", "attribute"),
        ("Yes, I can see the face.", "Yes", "sentence"),
        ("I can see the person's face clearly, so yes.", "Yes", "sentence"),
        ("Yes, the face is fully visible.", "Yes", "attribute"),
        ("Yes. The face is visible and well lit.", "Yes", "explained"),
        ("Yes, it does.", "Yes", "bare"),
        ("Yes, the photo shows a visible face.", "Yes", "sentence"),
        ("I'm not entirely sure, but yes, the face seems visible.", "Yes", "hedge"),
        ("No, the person's face is not visible.", "No", "negation"),
        ("No, the person is facing away from the camera.", "No", "explained"),
        ("No, the face is hidden behind a mask.", "No", "attribute"),
        ("No, the face is obscured by a helmet.", "No", "attribute"),
        ("No. The face is covered.", "No", "explained"),
        ("No (face not visible)", "No", "explained"),
        ("No: the face is not visible.", "No", "negation"),
        ("Answer: No (the face is not visible)", "No", "markdown"),
        ("The face is not visible, so the answer is No.", "No", "sentence"),
        ("The person's face is not visible.", "No", "negation"),
        ("The face is obscured.", "No", "attribute"),
        ("The face is hidden by a hood.", "No", "attribute"),
        ("No face is visible in the photo.", "No", "negation"),
        ("No, the face cannot be seen.", "No", "negation"),
        ("No, the person is wearing a full-face mask.", "No", "explained"),
        ("No, the face is turned away.", "No", "attribute"),
        ("No, the face is blurred.", "No", "attribute"),
        ("No\n\nExplanation: The person is seen from behind.", "No", "explained"),
        ("**No** - the face is not visible.", "No", "markdown"),
        ("**No.** The face is hidden.", "No", "markdown"),
        ("No, the face is not visible.\n\nPlease note that the image resolution is "
         "low.", "No", "note"),
        ("No, the face is not clearly visible.", "No", "negation"),
        ("No, the face is covered by a scarf.", "No", "attribute"),
        ("Not visible.", "No", "negation"),
        ("No, the face is out of frame.", "No", "explained"),
        ("No, the face is in deep shadow.", "No", "explained"),
        ("No visible face in the image.", "No", "negation"),
        ("There is no visible face.", "No", "negation"),
        ("The person's back is to the camera, so no.", "No", "sentence"),
        ("No, I cannot see a face.", "No", "sentence"),
        ("No, it does not.", "No", "bare"),
        ("No, the photo does not show a visible face.", "No", "negation"),
        ("It's hard to tell, but I'd say no; the face seems hidden.", "No", "hedge"),
        ("I can't tell whether a face is visible.", R, "refusal"),
        ("It is difficult to tell whether the face is visible.", R, "hedge"),
        ("Unclear", R, "hedge"),
        ("Sorry, I can't answer that.", R, "refusal"),
        ("Partially", U, "off_topic"),
        ("The image shows a crowd of people at a concert.", U, "off_topic"),
        ("The person is riding a bicycle.", U, "off_topic"),
        ("Does the photo show a visible face?", U, "echo"),
        ("Yes/no", U, "both"),
    ],
}
for task, rows in YES_NO_MORE.items():
    for answer, expected, source in rows:
        add(task, "yes_no", answer, expected, source)

# --- more FairFace category answers (origin prompt): every category in more forms -----------
DIGIT_FORMS_MORE = [
    ("Category: {d}", "digit_forms"),
    ("Category number: {d}", "digit_forms"),
    ("The category number is {d}.", "sentence"),
    ("My answer is {d}.", "sentence"),
    ("I would classify this person as {d}.", "sentence"),
    ("I'd say {d}.", "sentence"),
    ("Race: {d}", "digit_forms"),
    ("Label: {d}", "digit_forms"),
    ("[{d}]", "digit_forms"),
    ("({d})", "digit_forms"),
    ("{d} = {name}", "explained"),
    ("**{d}** ({name})", "markdown"),
    ("**Answer:** {d}", "markdown"),
    ("The answer is: **{d}**", "markdown"),
    ("Based on the photo, the answer is {d}.", "sentence"),
    ("Based on the visible features, I would choose {d} ({name}).", "sentence"),
    ("{name} ({d})", "explained"),
    ("{d} - {name}\n\nPlease note that this classification is based only on visual appearance "
     "and may not reflect the person's actual identity.", "note"),
    ("{d}\n\nExplanation: The person's facial features are most consistent with the {name} "
     "category.", "explained"),
    ("The person appears to be {name}, so the answer is {d}.", "sentence"),
    ("Output: {d}", "digit_forms"),
    ("Number: {d}", "digit_forms"),
    ("{d}<end_of_turn>", "residue"),
    ("{d}<|eot_id|>", "residue"),
    ("I'm not certain, but I would say {d}.", "hedge"),
    ("The person most likely belongs to category {d} ({name}).", "sentence"),
    ("Selected category: {d}", "digit_forms"),
]
DIGITS_MORE = [
    ("7", U, "conflict"),
    ("Category 7", U, "conflict"),
    ("8: Other", U, "conflict"),
    ("2/3", U, "conflict"),
    ("Either 3 or 4.", U, "conflict"),
    ("Between 2 and 6.", U, "conflict"),
    ("1, 5", U, "conflict"),
    ("The person could be 0 or 6.", U, "conflict"),
    ("0, 1, 2, 3, 4, 5, 6", U, "conflict"),
    ("3 (East Asian) or 4 (Southeast Asian)", U, "conflict"),
    ("1 (White)", U, "conflict"),
    ("5: Middle Eastern", U, "conflict"),
    ("East Asian (4)", U, "conflict"),
    ("The answer is 10.", U, "conflict"),
    ("The person is 25 years old.", U, "off_topic"),
    ("Unknown", R, "unknown"),
    ("I cannot classify a person's race based on a photo.", R, "refusal"),
    ("Sorry, I can't help with that request.", R, "refusal"),
    ("As an AI, I don't assign racial categories to people.", R, "refusal"),
    ("It's not possible to determine someone's race from an image.", R, "refusal"),
    ("Category three (East Asian)", "East Asian", "sentence"),
    ("I can't determine race with certainty, but if I had to choose: 3.", "East Asian", "hedge"),
    ("Answer: 5\nReason: facial features and a bindi", "Indian", "explained"),
    ("5\n\nThe person could also be Middle Eastern, but Indian seems most "
     "likely.", "Indian", "explained"),
    ("Race category: 4 (Southeast Asian).", "Southeast Asian", "digit_forms"),
    ("#6", "Middle Eastern", "digit_forms"),
    ("Option 0", "White", "digit_forms"),
    ("0 (White/Caucasian)", "White", "explained"),
    ("The person has dark hair and brown eyes.", U, "off_topic"),
]


def _digits_more():
    from nhfair_jax.lvlm.tasks import FAIRFACE_RACE

    for text, source in DIGIT_FORMS_MORE:
        for d, name in enumerate(FAIRFACE_RACE):
            add("bench_fairface", "digits", text.format(d=d, name=name), name, source)
    for answer, expected, source in DIGITS_MORE:
        add("bench_fairface", "digits", answer, expected, source)


_digits_more()


# --- the second reading (issue 51): ages as numbers, clause structure, colours of things ------
SOURCES.update({
    "age_number": "ages given as numbers, ranges, decades, 'N+' and fields, as LLaVA, Qwen2-VL, "
                  "InternVL and GPT-4o give them to an age question ('About 45.', 'Age: 72', "
                  "'in her forties', '65+'); read into the task's bins (young < 30, middle "
                  "30-59, old >= 60), a span across two bins unparseable",
    "clause": "a negation inside one phrase of a clause with another phrase after it ('has no "
              "facial hair and appears female'), double negations and 'no' before a noun",
    "colour_context": "colour words about clothes, hair, the background, the lighting or the "
                      "image ('The person's shirt is black'), alone, beside the person's own "
                      "colour, or after a refusal",
    "choice": "answers that weigh two classes and choose one ('I lean toward asian', 'closer "
              "to medium', 'so \"others\"'), or take a first reading back ('At first glance "
              "male, but actually female')",
})
AGE_CLASSES = {"young": (3, 16, 22, 29), "middle": (30, 37, 45, 52, 59), "old": (60, 66, 74, 88)}
AGE_FORMS = ["{n}", "{n}.", "About {n}.", "Approximately {n} years old.",
             "The person looks around {n}.", "A {n}-year-old.", "Age: {n}", "**Age:** {n}",
             "I'd estimate {n}.", "She appears to be {n} years old.", "He looks to be about {n}.",
             "Roughly {n}, I think.", "Estimated age: {n}", "~{n}"]
DECADES = [("twenties", "young"), ("thirties", "middle"), ("forties", "middle"),
           ("fifties", "middle"), ("sixties", "old"), ("seventies", "old"),
           ("eighties", "old")]
DECADE_FORMS = ["In {p} {d}.", "{p} {d}", "She looks to be in {p} early {d}.",
                "Probably in {p} late {d}.", "The person seems to be in {p} mid-{d}."]
AGE_RANGES = [((18, 25), "young"), ((20, 29), "young"), ((30, 40), "middle"),
              ((40, 50), "middle"), ((45, 55), "middle"), ((60, 70), "old"),
              ((70, 80), "old"), ((25, 35), U), ((55, 65), U), ((28, 32), U)]
RANGE_FORMS = ["{a}-{b}", "{a}-{b} years old", "Between {a} and {b}.",
               "Somewhere in the {a}-{b} range.", "Age: {a}-{b}", "Probably {a} to {b}."]


def _ages():
    for task in ("utkface_age", "facet_age"):
        for cls, numbers in AGE_CLASSES.items():
            for n in numbers:
                for form in AGE_FORMS:
                    add(task, "direct", form.format(n=n), cls, "age_number")
        for d, cls in DECADES:
            for p in ("his", "her", "their"):
                for form in DECADE_FORMS:
                    answer = form.format(p=p, d=d)
                    add(task, "direct", answer[0].upper() + answer[1:], cls, "age_number")
        for (a, b), cls in AGE_RANGES:
            for form in RANGE_FORMS:
                add(task, "direct", form.format(a=a, b=b), cls, "age_number")
        for answer, expected in [
                ("65+", "old"), ("70+", "old"), ("50+", U), ("Over 60.", "old"),
                ("Young at heart, but she looks about 70.", "old"),
                ("He's a young-looking 45-year-old.", "middle"),
                ("An old soul in a 24-year-old.", "young"),
                ("A woman aged around 34.", "middle"), ("A man aged 62.", "old"),
                ("The person is aged.", U), ("Late twenties or early thirties.", U),
                ("There are 2 people; the one in front looks about 50.", "middle"),
                ("Person 1: about 27 years old.", "young"),
                ("I can't know the exact age, but around 40.", "middle"),
                ("A baby, maybe 10 months old.", "young"),
                ("\"middle\" (about 45)", "middle"), ("\"old\" - around 80.", "old")]:
            add(task, "direct", answer, expected, "age_number")
        for asked in ("young", "middle", "old"):
            for n, cls in ((25, "young"), (41, "middle"), (67, "old")):
                for form in ("He appears to be about {n}.", "She looks around {n} years old.",
                             "The person is a {n}-year-old.", "Age: {n}"):
                    add(task, "single_choice", form.format(n=n),
                        "Yes" if cls == asked else "No", "age_number", asked=asked)


_ages()

FEATURES = ("facial hair", "beard", "makeup", "earrings", "glasses", "hat", "moustache",
            "jewellery", "tattoos")
CLAUSE_FORMS = [("The person has no {f} and appears {g}.", "{G}"),
                ("There is no {f}, and the person looks {g}.", "{G}"),
                ("No {f}; the person appears to be {g}.", "{G}"),
                ("The person wears no {f} and is {g}.", "{G}"),
                ("There's nothing to suggest the person isn't {g}.", "{G}"),
                ("Nothing here suggests this is not a {n}.", "{G}"),
                ("No doubt, a {n}.", "{G}"), ("There is no question this is a {n}.", "{G}")]


def _clauses():
    for task in ("utkface_gender", "facet_gender"):
        for g, G, n in (("male", "Male", "man"), ("female", "Female", "woman")):
            for form, expected in CLAUSE_FORMS:
                for f in (FEATURES if "{f}" in form else ("",)):
                    add(task, "direct", form.format(f=f, g=g, n=n), expected.format(G=G),
                        "clause")
    for f in ("bangs", "hat", "glasses", "fringe", "headband"):
        add("bench_celeba", "yes_no", f"The person has no {f} and wavy hair.", "Yes", "clause")
        add("bench_celeba", "yes_no", f"No {f}, and the hair is clearly wavy.", "Yes", "clause")
        add("bench_celeba", "yes_no", f"No {f}; the hair is straight.", "No", "clause")
        add("bench_celeba", "yes_no", f"The person has no {f} and no waves in the hair.", "No",
            "clause")
    for answer, expected in [("No doubt about it - yes, the hair is wavy.", "Yes"),
                             ("No, it isn't wavy.", "No"), ("No it is straight.", "No"),
                             ("Nothing covers the face.", "Yes"),
                             ("No obstruction covers the face, so Yes.", "Yes"),
                             ("A mask covers the face.", "No")]:
        add("bench_facet" if "face" in answer else "bench_celeba", "yes_no", answer, expected,
            "clause")


_clauses()

THINGS = ("shirt", "jacket", "hair", "background", "wall", "hat", "dress", "backdrop",
          "sweater", "lighting", "image", "photo")


def _colours():
    for thing in THINGS:
        for colour, cls in (("white", "White"), ("black", "Black")):
            add("utkface_race", "direct", f"The person's {thing} is {colour}.", U,
                "colour_context")
            add("utkface_race", "direct", f"I can't determine someone's race. The {thing} is "
                f"{colour}.", R, "colour_context")
            other = "black" if colour == "white" else "white"
            add("utkface_race", "direct", f"The {thing} is {other}, and the person is "
                f"{colour}.", cls, "colour_context")
            add("bench_fairface", "digits", f"I can't classify race. The {thing} is {colour}.",
                R, "colour_context")
            if thing in ("shirt", "jacket", "background", "hat", "dress", "sweater", "image",
                         "photo"):  # a place in the picture, or what the person wears
                add("utkface_race", "direct", f"The person in the {thing} is {colour}.", cls,
                    "colour_context")
        for colour in ("light", "dark", "medium"):
            add("facet_skin_tone", "direct", f"The {thing} is {colour}.", U, "colour_context")
            other = {"light": "dark", "dark": "light", "medium": "dark"}[colour]
            add("facet_skin_tone", "direct", f"The {thing} is {other}, but her skin is "
                f"{colour}.", colour, "colour_context")
            add("facet_skin_tone", "direct", f"The {thing} is {colour}, so I can't judge the "
                "skin tone.", R, "colour_context")


_colours()

for task, answer, expected in [
        ("utkface_race", "It could be white or asian; I lean toward asian.", "Asian"),
        ("utkface_race", "Between indian and others, I'd say \"indian\".", "Indian"),
        ("utkface_race", "None of white, black, asian or indian fits, so \"others\".", "Others"),
        ("utkface_race", "White or asian, I can't say which.", U),
        ("facet_skin_tone", "Between light and medium, closer to light.", "light"),
        ("facet_skin_tone", "Somewhere between medium and dark, closer to dark.", "dark"),
        ("facet_age", "Between young and middle, leaning young.", "young"),
        ("facet_occupation", "Maybe a singer, but \"guitarist\" fits better.", "guitarist"),
        ("facet_occupation", "It could be a nurse or a doctor; I'd go with doctor.", "doctor"),
        ("utkface_gender", "At first glance male, but actually female.", "Female"),
        ("utkface_gender", "Initially I thought female, but on closer look, male.", "Male"),
        ("utkface_gender", "At first glance, male.", "Male"),
        ("utkface_gender", "I'd prefer not to guess.", R),
        ("utkface_race", "I would rather not label anyone's race.", R),
        ("facet_age", "The person is too far away to estimate age.", R),
        ("utkface_race", "American Indian", "Others"),
        ("facet_occupation", "A skater in knee guards: \"skateboarder\".", "skateboarder"),
        ("facet_occupation", "A patient nurse with an old man: \"nurse\".", "nurse")]:
    add(task, "direct", answer, expected, "choice")
