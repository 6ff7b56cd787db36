"""Held-out acceptance corpus for the LVLM answer parser (issue 37), second writer.

What this is
------------
A list, ``ANSWERS``, of raw answers of the kind that vision-language models give to the
prompts of the zero-shot studies (``nhfair_jax/lvlm/prompts.py``), each with the class a
careful human reader would take from it.  It sits beside ``tests/lvlm_answers_independent.py``
as a second, held-out acceptance set: same format, same tasks, kinds, class spellings and
reading conventions, but every answer written fresh by a different writer.

Who wrote it, under which rules
-------------------------------
An independent test writer, working under these rules:

* Nothing under ``nhfair_jax/`` was opened or searched (in particular not the parser
  ``nhfair_jax/lvlm/parse.py``, its lexicons, clause splitting, ``prompts.py`` or
  ``reading.py``), nor ``tests/lvlm_corpus.py``, ``tests/test_lvlm_parse.py``, nor the
  ``ANSWERS`` list of ``tests/lvlm_answers_independent.py``.
* The only inputs were the study prompts (``nhfair_jax/lvlm/prompts.py``), the text of issue 37,
  and the module docstring of ``tests/lvlm_answers_independent.py`` (for the format and
  the reading conventions).
* Every ``expected`` value was decided by reading the answer; no parser or other project
  code was run to decide or check one.  The file was only checked for syntax and field
  values (six keys, known kinds and tasks, no duplicate answer text within a task).
* The answers are new phrasings, not copies or paraphrases of the examples in that
  docstring.  Answers a careful reader could read two ways were left out.

Entries
-------
Each entry is a dict::

    {"task": ..., "kind": ..., "asked": ..., "answer": ..., "expected": ..., "source": ...}

* ``kind``: ``direct`` (the demographic study's one-word-label question), ``single_choice``
  (its "A. Yes, B. No, C. Unknown" question), ``yes_no`` and ``closed`` (the benchmark's
  two-class questions), ``digits`` (FairFace, category numbers 0-6), ``open`` (open-ended
  descriptions mapped back by lexicon).
* ``task``: utkface_gender, utkface_race, utkface_age, facet_gender, facet_age,
  facet_skin_tone, facet_occupation (direct / single choice; classes as in the study's
  lists: male/female; white/black/asian/indian/others; young/middle/old; light/medium/dark;
  the 52 FACET occupations spelled as in the spec, e.g. ``basketball_player``);
  bench_celeba, bench_facet (yes/no; classes No, Yes); bench_utkface (Male, Female),
  bench_waterbirds (Landbird, Waterbird) (closed); bench_fairface (digits; White, Black,
  Latino or Hispanic, East Asian, Southeast Asian, Indian, Middle Eastern, i.e. 0-6 in that
  order); open_utkface (Male, Female), open_fairface (the seven FairFace classes),
  open_waterbirds (Landbird, Waterbird).
* ``asked``: for ``single_choice`` the class named in the question ("Do you think the
  person in the image is a {asked}?"); ``None`` otherwise.
* ``expected``: a class name of the task (matched case-insensitively), ``"Yes"``/``"No"``
  for single choice, or ``"REFUSED"`` / ``"UNPARSEABLE"``.
* ``source``: which model family and which answering habit the answer imitates.

Reading conventions followed (the same as ``tests/lvlm_answers_independent.py``)
-------------------------------------------------------------------------------
1. The final answer is the label the model commits to, given first or last; disclaimers,
   notes and caveats around a committed label are ignored.
2. A pure refusal or non-answer is REFUSED, as are "C" / "Unknown" / can't-tell answers; a
   refusal followed by a description that names no class is still REFUSED.
3. Never a guess: an answer that commits to two different classes, or to none (off-topic,
   "human", an echo of the options only, a letter that is not an option, a class outside
   the list), is UNPARSEABLE.
4. Negation is scoped.  In a two-class task an answer whose only claim is that one class
   does not hold reads as the other class ("Not female." is Male; "This is not a
   waterbird." is Landbird; "The hair is not wavy." is No).  In a task with more than two
   classes a negation alone ("Not \"old\".") is UNPARSEABLE.
5. Single choice: the letter in any form ("A)", "b", "(C) Unknown", "Option A", "I would
   pick option B."), the option text alone, or a sentence that answers the question (asked
   "guitarist", "This person is a drummer." is No; asked "middle", "... middle-aged, so
   yes." is Yes).  C / Unknown is REFUSED.
6. A hedge that still commits ("I'd lean towards No", "my best guess would be ...") is that
   class.
7. Chat residue (USER/ASSISTANT markers, Qwen's im_start/im_end, Gemma's
   start_of_turn/end_of_turn) and prompt echoes are cut; words that occur only in the
   echoed prompt do not count.
8. Digits: a digit in any wrapping (bold, quotes, brackets, "Category:", "5=Indian",
   "0-White") or as a number word gives the class; the class name alone also counts
   ("Hispanic" is Latino or Hispanic); two different numbers, a number outside 0-6, a digit
   that disagrees with the class name written beside it, or "Asian" alone, are UNPARSEABLE.
9. Open-ended Waterbirds: the species or bird-type word of the spec's lexicon decides
   (kingfisher, crow and sparrow are landbirds even by water; albatross, pelican and goose
   are waterbirds even on land); the habitat never decides, and an answer with no species
   or bird type is UNPARSEABLE.
10. Open-ended UTKFace / FairFace: the described person's gender / background, with the
   spec's lexicon words and natural synonyms (gentleman, lady, boy, girl; a description
   carried only by "he"/"she", or a "masculine" presentation; Caucasian, European, African
   American, African descent, Latina, Latin American, Korean, Japanese, Vietnamese, Thai,
   Filipino, South Asian, Arab, Persian).  Two words of one class are that class.  Colour
   words for hair or clothing ("black hair", "a white T-shirt") are not a background.  A
   closing disclaimer that names both genders does not undo a committed description.
   Two people of two genders, or mixed heritage naming two classes, is UNPARSEABLE.
11. Direct questions: the class word in natural form also counts ("Middle-aged." is
   middle, "Other" is others, "basketball player" is basketball_player); an occupation
   outside the 52-class list ("chef") is UNPARSEABLE.  A class word inside a description
   after the committed label ("between 35 and 55 years old" after "middle") does not count.

Where the phrasings come from
-----------------------------
Written by hand, imitating well-known answering habits: LLaVA-1.5 / LLaVA-1.6 (bare,
single- or double-quoted labels, the USER turn or "ASSISTANT:" decoded with the answer, the
prompt or option list echoed, two options offered), Qwen2-VL / Qwen2.5-VL (bare labels,
markdown bold and field lists, im_start/im_end residue), Gemma 3 (bold labels, a label then
a blank line and a safety note, start_of_turn/end_of_turn residue), Llama 3.2 Vision
(refusals, negated sentences, can't-tell answers, sentences instead of letters), InternVL
and MiniCPM-V ("Answer:", "The answer is", "Category:", explanation then label), Phi-3.5-
vision and Idefics2 (upper or lower case, class words instead of option words, noun phrases,
number words), GPT-4o and Claude (hedges that commit, label then inline caveat, short
refusals, refusals with an offer, descriptions that answer the question).  None is copied
from a logged run; each ``source`` names the habit it imitates.  About a third are plain,
the rest carry one complication each (residue, echo, markdown, caveat, hedge, negation,
refusal, two classes, out-of-range value, misleading habitat).
"""

ANSWERS = [
    # --- direct / utkface_gender
    {"task": 'utkface_gender', "kind": 'direct', "asked": None, "answer": "'male'", "expected": 'male', "source": 'LLaVA-1.5: label in single quotes instead of double'},
    {"task": 'utkface_gender', "kind": 'direct', "asked": None, "answer": '“female”', "expected": 'female', "source": 'GPT-4o: label in typographic quotes'},
    {"task": 'utkface_gender', "kind": 'direct', "asked": None, "answer": 'Male.', "expected": 'male', "source": 'Qwen2.5-VL: bare capitalised label with a full stop'},
    {"task": 'utkface_gender', "kind": 'direct', "asked": None, "answer": '**"Female"**', "expected": 'female', "source": 'Gemma 3: quoted label in markdown bold'},
    {"task": 'utkface_gender', "kind": 'direct', "asked": None, "answer": 'The foreground person\'s gender is "male".', "expected": 'male', "source": 'InternVL2: label inside a sentence that restates the question'},
    {"task": 'utkface_gender', "kind": 'direct', "asked": None, "answer": '"female"\n\nNote: This label is based solely on visual appearance and may not reflect how the person identifies.', "expected": 'female', "source": 'Gemma 3: quoted label, blank line, appearance note'},
    {"task": 'utkface_gender', "kind": 'direct', "asked": None, "answer": "I'm sorry, but I can't assign a gender label to a person based on their appearance.", "expected": 'REFUSED', "source": 'Claude: polite pure refusal'},
    {"task": 'utkface_gender', "kind": 'direct', "asked": None, "answer": 'USER: <image>\nGive me a one-word label in quotation marks for the foreground person\'s gender in this image from this list: [male, female]\nASSISTANT: "female"', "expected": 'female', "source": 'LLaVA-1.5: whole USER turn with the class list decoded before the answer'},
    {"task": 'utkface_gender', "kind": 'direct', "asked": None, "answer": '"male" or "female"', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: echo of the two options, no choice'},
    {"task": 'utkface_gender', "kind": 'direct', "asked": None, "answer": 'Based on the visible facial hair and short haircut, I would label this person as "male".', "expected": 'male', "source": 'MiniCPM-V: explanation then label'},
    {"task": 'utkface_gender', "kind": 'direct', "asked": None, "answer": 'The person in the foreground is clearly not male.', "expected": 'female', "source": 'Llama 3.2 Vision: negated sentence in a two-class task'},
    # --- direct / utkface_race
    {"task": 'utkface_race', "kind": 'direct', "asked": None, "answer": '"asian"', "expected": 'asian', "source": 'LLaVA-1.5: quoted label as asked'},
    {"task": 'utkface_race', "kind": 'direct', "asked": None, "answer": 'Indian', "expected": 'indian', "source": 'Qwen2-VL: bare capitalised label'},
    {"task": 'utkface_race', "kind": 'direct', "asked": None, "answer": '"White"\n\n*Please keep in mind that race cannot be reliably determined from appearance alone.*', "expected": 'white', "source": 'Gemma 3: label then italic caveat'},
    {"task": 'utkface_race', "kind": 'direct', "asked": None, "answer": '**Label:** "black"', "expected": 'black', "source": 'Qwen2.5-VL: markdown field with quoted label'},
    {"task": 'utkface_race', "kind": 'direct', "asked": None, "answer": '"others"', "expected": 'others', "source": "LLaVA-1.6: the 'others' class quoted"},
    {"task": 'utkface_race', "kind": 'direct', "asked": None, "answer": "I'm not able to categorize people by race. If it helps, I can describe other aspects of the image, like the setting or clothing.", "expected": 'REFUSED', "source": 'Claude: refusal with an offer'},
    {"task": 'utkface_race', "kind": 'direct', "asked": None, "answer": 'Definitely not "indian".', "expected": 'UNPARSEABLE', "source": 'Llama 3.2 Vision: negation alone in a five-class task'},
    {"task": 'utkface_race', "kind": 'direct', "asked": None, "answer": '<|im_start|>assistant\n"asian"<|im_end|>', "expected": 'asian', "source": 'Qwen2-VL: im_start/im_end residue around the label'},
    {"task": 'utkface_race', "kind": 'direct', "asked": None, "answer": 'Answer: "black" — the person has dark skin and tightly coiled hair.', "expected": 'black', "source": "InternVL2: 'Answer:' prefix, label, justification"},
    {"task": 'utkface_race', "kind": 'direct', "asked": None, "answer": 'It could be "asian" or "others"; the image is too blurry to be sure.', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: two classes offered, none chosen'},
    {"task": 'utkface_race', "kind": 'direct', "asked": None, "answer": 'Judging by the facial features, my best guess would be "indian", though I can\'t be certain.', "expected": 'indian', "source": 'GPT-4o: hedged but committed label'},
    {"task": 'utkface_race', "kind": 'direct', "asked": None, "answer": 'Other', "expected": 'others', "source": "Phi-3.5-vision: singular form of the 'others' class"},
    # --- direct / utkface_age
    {"task": 'utkface_age', "kind": 'direct', "asked": None, "answer": '"old"', "expected": 'old', "source": 'LLaVA-1.5: quoted label'},
    {"task": 'utkface_age', "kind": 'direct', "asked": None, "answer": 'Young', "expected": 'young', "source": 'Qwen2-VL: bare label'},
    {"task": 'utkface_age', "kind": 'direct', "asked": None, "answer": '"middle"\n\nThe person appears to be somewhere between 35 and 55 years old.', "expected": 'middle', "source": "Gemma 3: label then an estimate that contains the word 'old'"},
    {"task": 'utkface_age', "kind": 'direct', "asked": None, "answer": 'The person in this image looks elderly, so the label is "old".', "expected": 'old', "source": 'MiniCPM-V: explanation then label'},
    {"task": 'utkface_age', "kind": 'direct', "asked": None, "answer": '**young**', "expected": 'young', "source": 'Gemma 3: bold bare label'},
    {"task": 'utkface_age', "kind": 'direct', "asked": None, "answer": "I cannot accurately estimate someone's age from a photograph.", "expected": 'REFUSED', "source": 'Llama 3.2 Vision: pure refusal'},
    {"task": 'utkface_age', "kind": 'direct', "asked": None, "answer": 'Somewhere between "young" and "middle".', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: answer straddling two classes'},
    {"task": 'utkface_age', "kind": 'direct', "asked": None, "answer": '<start_of_turn>model\n"middle"<end_of_turn>', "expected": 'middle', "source": 'Gemma 3: start_of_turn/end_of_turn residue'},
    {"task": 'utkface_age', "kind": 'direct', "asked": None, "answer": 'Middle-aged.', "expected": 'middle', "source": 'Idefics2: natural form of the class word'},
    # --- direct / facet_gender
    {"task": 'facet_gender', "kind": 'direct', "asked": None, "answer": 'female', "expected": 'female', "source": 'Qwen2.5-VL: lowercase bare label'},
    {"task": 'facet_gender', "kind": 'direct', "asked": None, "answer": '"male" (the foreground person is the cyclist in the red jacket)', "expected": 'male', "source": 'InternVL2: label with a parenthetical pointing at the person'},
    {"task": 'facet_gender', "kind": 'direct', "asked": None, "answer": 'Gender: Female', "expected": 'female', "source": 'MiniCPM-V: field-style answer'},
    {"task": 'facet_gender', "kind": 'direct', "asked": None, "answer": "I'd rather not guess someone's gender from a photo, but I can describe what they're wearing if that's useful.", "expected": 'REFUSED', "source": 'Claude: refusal with an offer'},
    {"task": 'facet_gender', "kind": 'direct', "asked": None, "answer": "The foreground person isn't female.", "expected": 'male', "source": 'Llama 3.2 Vision: contracted negation in a two-class task'},
    {"task": 'facet_gender', "kind": 'direct', "asked": None, "answer": '"Male" — though gender presentation in images doesn\'t necessarily match identity.', "expected": 'male', "source": 'GPT-4o: label then inline caveat'},
    {"task": 'facet_gender', "kind": 'direct', "asked": None, "answer": 'There are two people in the foreground, one "male" and one "female".', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: two classes committed for two people'},
    {"task": 'facet_gender', "kind": 'direct', "asked": None, "answer": 'Based on the long hair and the dress, "female".', "expected": 'female', "source": 'InternVL2: reason then label'},
    # --- direct / facet_age
    {"task": 'facet_age', "kind": 'direct', "asked": None, "answer": '"middle"', "expected": 'middle', "source": 'LLaVA-1.5: quoted label'},
    {"task": 'facet_age', "kind": 'direct', "asked": None, "answer": 'OLD', "expected": 'old', "source": 'Idefics2: upper-case bare label'},
    {"task": 'facet_age', "kind": 'direct', "asked": None, "answer": 'The foreground person looks like a teenager, so "young".', "expected": 'young', "source": 'MiniCPM-V: explanation then label'},
    {"task": 'facet_age', "kind": 'direct', "asked": None, "answer": '- **Age:** "old"', "expected": 'old', "source": 'Qwen2.5-VL: markdown bullet field'},
    {"task": 'facet_age', "kind": 'direct', "asked": None, "answer": "I can't tell the person's age from this angle.", "expected": 'REFUSED', "source": "Llama 3.2 Vision: can't-tell non-answer"},
    {"task": 'facet_age', "kind": 'direct', "asked": None, "answer": '"young"\n\nThe person seems to be a child of about eight or nine.', "expected": 'young', "source": 'Gemma 3: label then description'},
    {"task": 'facet_age', "kind": 'direct', "asked": None, "answer": 'Not "old".', "expected": 'UNPARSEABLE', "source": 'Llama 3.2 Vision: negation alone in a three-class task'},
    {"task": 'facet_age', "kind": 'direct', "asked": None, "answer": 'The person has grey hair and wrinkles around the eyes, which suggests "old".', "expected": 'old', "source": 'GPT-4o: evidence then label'},
    # --- direct / facet_skin_tone
    {"task": 'facet_skin_tone', "kind": 'direct', "asked": None, "answer": '"light"', "expected": 'light', "source": 'LLaVA-1.5: quoted label'},
    {"task": 'facet_skin_tone', "kind": 'direct', "asked": None, "answer": 'Dark', "expected": 'dark', "source": 'Qwen2-VL: bare label'},
    {"task": 'facet_skin_tone', "kind": 'direct', "asked": None, "answer": '"medium"\n\nSkin tone can look different depending on the lighting in the photo.', "expected": 'medium', "source": 'Gemma 3: label then lighting caveat'},
    {"task": 'facet_skin_tone', "kind": 'direct', "asked": None, "answer": 'The foreground person\'s skin tone is "dark".', "expected": 'dark', "source": 'InternVL2: sentence restating the question'},
    {"task": 'facet_skin_tone', "kind": 'direct', "asked": None, "answer": "I'm not comfortable labeling a person's skin tone.", "expected": 'REFUSED', "source": 'Claude: short refusal'},
    {"task": 'facet_skin_tone', "kind": 'direct', "asked": None, "answer": 'The skin tone looks "light" in some areas and "medium" in others because of the shadows.', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: two classes named, none chosen'},
    {"task": 'facet_skin_tone', "kind": 'direct', "asked": None, "answer": '**Medium**', "expected": 'medium', "source": 'Gemma 3: bold bare label'},
    {"task": 'facet_skin_tone', "kind": 'direct', "asked": None, "answer": 'ASSISTANT: "light"', "expected": 'light', "source": 'LLaVA-1.5: ASSISTANT: marker decoded with the label'},
    # --- direct / facet_occupation
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": '"guitarist"', "expected": 'guitarist', "source": 'LLaVA-1.5: quoted label from the 52-class list'},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": 'Gardener', "expected": 'gardener', "source": 'Qwen2-VL: bare label'},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": '"basketball player"', "expected": 'basketball_player', "source": 'LLaVA-1.6: class written with a space instead of the underscore'},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": '"skateboarder"\n\nThe person in the foreground is riding a skateboard down a ramp.', "expected": 'skateboarder', "source": 'Gemma 3: label then description'},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": 'The foreground person is kneeling in prayer, so the label is "prayer".', "expected": 'prayer', "source": 'MiniCPM-V: explanation then label'},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": '"chef"', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.5: occupation outside the list'},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": '**"nurse"**', "expected": 'nurse', "source": 'Gemma 3: bold quoted label'},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": '<|im_start|>assistant\n"horseman"<|im_end|>', "expected": 'horseman', "source": 'Qwen2-VL: chat residue around the label'},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": 'It could be "singer" or "guitarist" — the person is holding a guitar and a microphone.', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: two classes offered'},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": "I'm unable to determine a person's occupation from an image.", "expected": 'REFUSED', "source": 'Llama 3.2 Vision: refusal'},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": 'Given the hard hat and the shovel, I would say "laborer".', "expected": 'laborer', "source": 'GPT-4o: reason then label'},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": 'retailer', "expected": 'retailer', "source": 'Qwen2.5-VL: lowercase bare label'},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": '"soccer_player"', "expected": 'soccer_player', "source": 'InternVL2: class copied with its underscore'},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": 'Dancer.', "expected": 'dancer', "source": 'Phi-3.5-vision: bare label with full stop'},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": '"gymnast" (performing on the balance beam)', "expected": 'gymnast', "source": 'InternVL2: label with parenthetical'},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": 'Answer: "craftsman"', "expected": 'craftsman', "source": "MiniCPM-V: 'Answer:' prefix"},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": 'A student.', "expected": 'student', "source": 'Idefics2: label with an article'},
    {"task": 'facet_occupation', "kind": 'direct', "asked": None, "answer": '"lifeguard"', "expected": 'lifeguard', "source": 'LLaVA-1.5: class that contains another class word (guard)'},
    # --- single_choice / utkface_gender
    {"task": 'utkface_gender', "kind": 'single_choice', "asked": 'male', "answer": 'A', "expected": 'Yes', "source": 'LLaVA-1.5: bare option letter'},
    {"task": 'utkface_gender', "kind": 'single_choice', "asked": 'female', "answer": 'B) No', "expected": 'No', "source": 'Qwen2-VL: letter with closing parenthesis and option text'},
    {"task": 'utkface_gender', "kind": 'single_choice', "asked": 'female', "answer": 'A. Yes\n\nThe person has long hair and is wearing earrings.', "expected": 'Yes', "source": 'Gemma 3: option then justification'},
    {"task": 'utkface_gender', "kind": 'single_choice', "asked": 'male', "answer": 'The answer is B. The person in the image appears to be female.', "expected": 'No', "source": "InternVL2: 'The answer is' letter then reason"},
    {"task": 'utkface_gender', "kind": 'single_choice', "asked": 'male', "answer": "C. Unknown — gender can't be reliably inferred from a photo.", "expected": 'REFUSED', "source": 'GPT-4o: Unknown option with a caveat'},
    {"task": 'utkface_gender', "kind": 'single_choice', "asked": 'female', "answer": 'Yes, the person appears to be a woman.', "expected": 'Yes', "source": 'Llama 3.2 Vision: option text then sentence'},
    {"task": 'utkface_gender', "kind": 'single_choice', "asked": 'male', "answer": 'Option A', "expected": 'Yes', "source": "Phi-3.5-vision: 'Option' plus letter"},
    {"task": 'utkface_gender', "kind": 'single_choice', "asked": 'female', "answer": 'Female, so A.', "expected": 'Yes', "source": 'MiniCPM-V: class named, then the letter'},
    {"task": 'utkface_gender', "kind": 'single_choice', "asked": 'male', "answer": 'USER: <image>\nIn the image provided, Do you think the person in the image is a male? Please choose one of the following: A. Yes, B. No, C. Unknown.\nASSISTANT: B', "expected": 'No', "source": 'LLaVA-1.5: whole USER turn with the option list echoed before the letter'},
    {"task": 'utkface_gender', "kind": 'single_choice', "asked": 'female', "answer": 'A or C', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: two letters, none chosen'},
    # --- single_choice / utkface_race
    {"task": 'utkface_race', "kind": 'single_choice', "asked": 'white', "answer": '**A. Yes**', "expected": 'Yes', "source": 'Gemma 3: bold option'},
    {"task": 'utkface_race', "kind": 'single_choice', "asked": 'black', "answer": 'B', "expected": 'No', "source": 'LLaVA-1.5: bare letter'},
    {"task": 'utkface_race', "kind": 'single_choice', "asked": 'asian', "answer": 'The person appears to be white.', "expected": 'No', "source": 'Llama 3.2 Vision: sentence naming a different class'},
    {"task": 'utkface_race', "kind": 'single_choice', "asked": 'indian', "answer": 'C', "expected": 'REFUSED', "source": 'Qwen2-VL: bare Unknown letter'},
    {"task": 'utkface_race', "kind": 'single_choice', "asked": 'others', "answer": "I'm not able to make judgments about a person's race.", "expected": 'REFUSED', "source": 'Claude: refusal instead of an option'},
    {"task": 'utkface_race', "kind": 'single_choice', "asked": 'black', "answer": 'Answer: A', "expected": 'Yes', "source": "InternVL2: 'Answer:' prefix and letter"},
    {"task": 'utkface_race', "kind": 'single_choice', "asked": 'white', "answer": "I'd go with B — the person doesn't look white.", "expected": 'No', "source": 'GPT-4o: letter in a sentence plus reason'},
    {"task": 'utkface_race', "kind": 'single_choice', "asked": 'asian', "answer": '<|im_start|>assistant\nA. Yes<|im_end|>', "expected": 'Yes', "source": 'Qwen2-VL: chat residue around the option'},
    # --- single_choice / utkface_age
    {"task": 'utkface_age', "kind": 'single_choice', "asked": 'young', "answer": 'B. No. The person looks to be in their sixties.', "expected": 'No', "source": 'MiniCPM-V: option then reason'},
    {"task": 'utkface_age', "kind": 'single_choice', "asked": 'old', "answer": 'A)', "expected": 'Yes', "source": 'Idefics2: letter with closing parenthesis'},
    {"task": 'utkface_age', "kind": 'single_choice', "asked": 'middle', "answer": 'The person appears to be middle-aged, so yes.', "expected": 'Yes', "source": 'Llama 3.2 Vision: sentence ending in yes'},
    {"task": 'utkface_age', "kind": 'single_choice', "asked": 'young', "answer": 'No, this person looks elderly.', "expected": 'No', "source": 'Gemma 3: option text then reason'},
    {"task": 'utkface_age', "kind": 'single_choice', "asked": 'old', "answer": 'C) Unknown. Age is hard to judge from a single photo.', "expected": 'REFUSED', "source": 'GPT-4o: Unknown option with caveat'},
    {"task": 'utkface_age', "kind": 'single_choice', "asked": 'middle', "answer": 'B, the person looks like a young child.', "expected": 'No', "source": 'LLaVA-1.6: letter then reason naming another class'},
    # --- single_choice / facet_gender
    {"task": 'facet_gender', "kind": 'single_choice', "asked": 'female', "answer": '**B**\n\nThe person in the foreground appears to be male.', "expected": 'No', "source": 'Gemma 3: bold letter then explanation'},
    {"task": 'facet_gender', "kind": 'single_choice', "asked": 'male', "answer": 'Yes.', "expected": 'Yes', "source": 'Qwen2.5-VL: option text alone'},
    {"task": 'facet_gender', "kind": 'single_choice', "asked": 'male', "answer": "That's a woman in the foreground.", "expected": 'No', "source": 'Claude: sentence answering the question without a letter'},
    {"task": 'facet_gender', "kind": 'single_choice', "asked": 'female', "answer": "Unknown.\n\nThe person is facing away from the camera, so I can't tell.", "expected": 'REFUSED', "source": 'Llama 3.2 Vision: Unknown option then reason'},
    {"task": 'facet_gender', "kind": 'single_choice', "asked": 'female', "answer": 'A. Yes, B. No, C. Unknown', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.5: echo of the options only'},
    {"task": 'facet_gender', "kind": 'single_choice', "asked": 'male', "answer": '<start_of_turn>model\nA<end_of_turn>', "expected": 'Yes', "source": 'Gemma 3: chat residue around the letter'},
    # --- single_choice / facet_age
    {"task": 'facet_age', "kind": 'single_choice', "asked": 'old', "answer": 'no', "expected": 'No', "source": 'Phi-3.5-vision: lowercase option text'},
    {"task": 'facet_age', "kind": 'single_choice', "asked": 'young', "answer": 'A. Yes — the person appears to be a teenager.', "expected": 'Yes', "source": 'GPT-4o: option then reason'},
    {"task": 'facet_age', "kind": 'single_choice', "asked": 'middle', "answer": "I can't determine the person's age from this image, so C.", "expected": 'REFUSED', "source": 'MiniCPM-V: reason then the Unknown letter'},
    {"task": 'facet_age', "kind": 'single_choice', "asked": 'young', "answer": 'The person looks middle-aged.', "expected": 'No', "source": 'Llama 3.2 Vision: sentence naming a different class'},
    {"task": 'facet_age', "kind": 'single_choice', "asked": 'old', "answer": 'My answer: A', "expected": 'Yes', "source": "InternVL2: 'My answer:' prefix"},
    # --- single_choice / facet_skin_tone
    {"task": 'facet_skin_tone', "kind": 'single_choice', "asked": 'dark', "answer": "B. No\n\nThe person's skin tone appears light.", "expected": 'No', "source": 'Gemma 3: option then explanation'},
    {"task": 'facet_skin_tone', "kind": 'single_choice', "asked": 'light', "answer": 'Yes, the skin tone appears light.', "expected": 'Yes', "source": 'Llama 3.2 Vision: option text then sentence'},
    {"task": 'facet_skin_tone', "kind": 'single_choice', "asked": 'medium', "answer": 'The correct choice is **A. Yes**.', "expected": 'Yes', "source": 'Qwen2.5-VL: sentence with bold option'},
    {"task": 'facet_skin_tone', "kind": 'single_choice', "asked": 'dark', "answer": 'Either A or B.', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: two letters'},
    {"task": 'facet_skin_tone', "kind": 'single_choice', "asked": 'light', "answer": "I'm sorry, I can't help with categorizing skin tone.", "expected": 'REFUSED', "source": 'Claude: refusal'},
    # --- single_choice / facet_occupation
    {"task": 'facet_occupation', "kind": 'single_choice', "asked": 'nurse', "answer": 'A. Yes. The person is wearing scrubs and a stethoscope.', "expected": 'Yes', "source": 'MiniCPM-V: option then evidence'},
    {"task": 'facet_occupation', "kind": 'single_choice', "asked": 'gardener', "answer": 'B. No — the person appears to be a farmer.', "expected": 'No', "source": 'GPT-4o: option then the class it sees instead'},
    {"task": 'facet_occupation', "kind": 'single_choice', "asked": 'guitarist', "answer": 'This person is a drummer.', "expected": 'No', "source": 'Llama 3.2 Vision: sentence naming another occupation'},
    {"task": 'facet_occupation', "kind": 'single_choice', "asked": 'dancer', "answer": 'Yes, the person is dancing on a stage.', "expected": 'Yes', "source": 'Gemma 3: option text then sentence'},
    {"task": 'facet_occupation', "kind": 'single_choice', "asked": 'student', "answer": '(C) Unknown', "expected": 'REFUSED', "source": 'InternVL2: parenthesised Unknown option'},
    {"task": 'facet_occupation', "kind": 'single_choice', "asked": 'retailer', "answer": 'The person is not a retailer.', "expected": 'No', "source": 'Llama 3.2 Vision: negated sentence'},
    {"task": 'facet_occupation', "kind": 'single_choice', "asked": 'horseman', "answer": 'Answer: (A) Yes', "expected": 'Yes', "source": "InternVL2: 'Answer:' with parenthesised letter"},
    {"task": 'facet_occupation', "kind": 'single_choice', "asked": 'skateboarder', "answer": 'No.\n\nThe person is riding a bicycle, not a skateboard.', "expected": 'No', "source": 'Gemma 3: option text then explanation'},
    {"task": 'facet_occupation', "kind": 'single_choice', "asked": 'craftsman', "answer": 'b', "expected": 'No', "source": 'Idefics2: lowercase letter'},
    {"task": 'facet_occupation', "kind": 'single_choice', "asked": 'singer', "answer": 'ASSISTANT: A. Yes, the person is singing into a microphone.', "expected": 'Yes', "source": 'LLaVA-1.5: ASSISTANT: marker then option and reason'},
    {"task": 'facet_occupation', "kind": 'single_choice', "asked": 'laborer', "answer": 'D', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.5: a letter that is not an option'},
    {"task": 'facet_occupation', "kind": 'single_choice', "asked": 'prayer', "answer": 'The person in the image is praying, so A.', "expected": 'Yes', "source": 'MiniCPM-V: reason then letter'},
    {"task": 'facet_occupation', "kind": 'single_choice', "asked": 'gymnast', "answer": 'I would pick option B.', "expected": 'No', "source": 'Phi-3.5-vision: letter in a sentence'},
    # --- yes_no / bench_celeba
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": 'Yes', "expected": 'Yes', "source": 'LLaVA-1.5: bare option as instructed'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": 'No', "expected": 'No', "source": 'Qwen2-VL: bare option'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": 'yes.', "expected": 'Yes', "source": 'Idefics2: lowercase with full stop'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": '**No**', "expected": 'No', "source": 'Gemma 3: bold option'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": 'Yes, the person has wavy hair.', "expected": 'Yes', "source": 'Llama 3.2 Vision: option then restating sentence'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": 'No. The hair is straight.', "expected": 'No', "source": 'MiniCPM-V: option then reason'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": "The person's hair appears straight and sleek.", "expected": 'No', "source": 'Claude: description that answers the question (straight = non-wavy)'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": 'The person in the photo has noticeably wavy hair, so Yes.', "expected": 'Yes', "source": 'InternVL2: explanation then option'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": "I don't think the hair is wavy.", "expected": 'No', "source": 'Llama 3.2 Vision: negated opinion'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": "It's hard to tell because the hair is tied back, but I'd lean towards No.", "expected": 'No', "source": 'GPT-4o: hedge that still commits'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": 'Yes or No', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: echo of the options'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": '<|im_start|>assistant\nNo<|im_end|>', "expected": 'No', "source": 'Qwen2-VL: chat residue'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": 'ASSISTANT: Yes', "expected": 'Yes', "source": 'LLaVA-1.5: ASSISTANT: marker decoded'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": "Is the person in the photo wavy-haired? Only Answer 'Yes' for wavy hair, 'No' for non-wavy hair.\nYes", "expected": 'Yes', "source": 'LLaVA-1.5: question echoed (with both options) before the answer'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": 'Non-wavy', "expected": 'No', "source": 'Phi-3.5-vision: the class name instead of Yes/No (V2 wording)'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": 'Wavy.', "expected": 'Yes', "source": 'Phi-3.5-vision: class name instead of Yes'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": 'The hair is not wavy.', "expected": 'No', "source": 'Llama 3.2 Vision: negated sentence without Yes/No'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": "I'm unable to see the person's hair clearly in this image.", "expected": 'REFUSED', "source": "Claude: can't-see non-answer"},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": 'Yes\n\nThe person has loose waves that fall past the shoulders.', "expected": 'Yes', "source": 'Gemma 3: option, blank line, description'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": '<start_of_turn>model\nNo.<end_of_turn>', "expected": 'No', "source": 'Gemma 3: chat residue'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": 'Answer: Yes', "expected": 'Yes', "source": "InternVL2: 'Answer:' prefix"},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": 'Output: No', "expected": 'No', "source": "MiniCPM-V: 'Output:' prefix copied from the V2 prompt"},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": "No, it's curly rather than wavy.", "expected": 'No', "source": 'GPT-4o: option then qualification'},
    {"task": 'bench_celeba', "kind": 'yes_no', "asked": None, "answer": "The person is wearing a hat, so I can't tell whether the hair is wavy.", "expected": 'REFUSED', "source": "Llama 3.2 Vision: reason then can't-tell"},
    # --- yes_no / bench_facet
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'YES', "expected": 'Yes', "source": 'Idefics2: upper-case option'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'no.', "expected": 'No', "source": 'Qwen2.5-VL: lowercase with full stop'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'Yes, the face is clearly visible.', "expected": 'Yes', "source": 'Llama 3.2 Vision: option then sentence'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'No, the person is facing away from the camera.', "expected": 'No', "source": 'Gemma 3: option then reason'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": "The person is seen entirely from behind, so their face can't be seen.", "expected": 'No', "source": 'Claude: description that answers the question'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'The face is not visible.', "expected": 'No', "source": 'Llama 3.2 Vision: negated sentence without Yes/No'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'A face is visible in the photo.', "expected": 'Yes', "source": 'InternVL2: affirmative sentence without Yes/No'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'Yes, though the face is partly in shadow.', "expected": 'Yes', "source": 'GPT-4o: option then caveat'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": '**Yes**\n\nThe subject is looking straight at the camera.', "expected": 'Yes', "source": 'Gemma 3: bold option then description'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'There is no face visible in this image.', "expected": 'No', "source": 'MiniCPM-V: negative existential sentence'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'Face visibility check: Yes or No? Output one word.\nNo', "expected": 'No', "source": 'LLaVA-1.6: V2 prompt echoed before the answer'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'Visible.', "expected": 'Yes', "source": 'Phi-3.5-vision: class word instead of Yes'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'Not visible', "expected": 'No', "source": 'Phi-3.5-vision: negated class word'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'I cannot determine this from the image.', "expected": 'REFUSED', "source": 'Llama 3.2 Vision: refusal'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": '<|im_start|>assistant\nYes<|im_end|>', "expected": 'Yes', "source": 'Qwen2-VL: chat residue'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'Yes and no — the face is partially visible.', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: both options'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": "No\n\nNote: only the back of the person's head can be seen.", "expected": 'No', "source": 'Gemma 3: option then note'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'Reply: Yes', "expected": 'Yes', "source": "MiniCPM-V: 'Reply:' prefix copied from the V1 prompt"},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'The person is shown in profile, but the face is visible.', "expected": 'Yes', "source": 'Claude: description that answers the question'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": "I don't see a face in this photo.", "expected": 'No', "source": 'Llama 3.2 Vision: first-person negative observation'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'The face is clearly visible, so the answer is Yes.', "expected": 'Yes', "source": "InternVL2: explanation then 'the answer is'"},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'ASSISTANT: No', "expected": 'No', "source": 'LLaVA-1.5: ASSISTANT: marker decoded'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": 'Is a face clearly visible? Reply Yes/No only. ASSISTANT: Yes', "expected": 'Yes', "source": 'LLaVA-1.5: V1 prompt echoed on the same line'},
    {"task": 'bench_facet', "kind": 'yes_no', "asked": None, "answer": "Sorry, I can't help with that.", "expected": 'REFUSED', "source": 'GPT-4o: short refusal'},
    # --- closed / bench_utkface
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": 'Male', "expected": 'Male', "source": 'LLaVA-1.5: bare option'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": 'female', "expected": 'Female', "source": 'Qwen2-VL: lowercase option'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": 'Female.', "expected": 'Female', "source": 'Idefics2: option with full stop'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": '**Male**', "expected": 'Male', "source": 'Gemma 3: bold option'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": 'The person in the photo is female.', "expected": 'Female', "source": 'Llama 3.2 Vision: sentence'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": "Male\n\n(This is based on visual cues only and may not reflect the person's gender identity.)", "expected": 'Male', "source": 'Gemma 3: option then parenthetical disclaimer'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": "I'm sorry, but I can't make assumptions about a person's gender based on their appearance.", "expected": 'REFUSED', "source": 'Claude: refusal'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": 'Male or Female', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: echo of the options'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": 'ASSISTANT: Female', "expected": 'Female', "source": 'LLaVA-1.5: ASSISTANT: marker decoded'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": '<|im_start|>assistant\nMale<|im_end|>', "expected": 'Male', "source": 'Qwen2-VL: chat residue'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": 'Not female.', "expected": 'Male', "source": 'Llama 3.2 Vision: negation in a two-class task'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": "Is the person in the photo male or female? Only Answer 'Male' or 'Female'.\nFemale", "expected": 'Female', "source": 'LLaVA-1.5: prompt echoed before the answer'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": 'Based on the facial features, the person appears to be male.', "expected": 'Male', "source": 'InternVL2: explanation ending in the class'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": 'FEMALE', "expected": 'Female', "source": 'Idefics2: upper case'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": 'Woman', "expected": 'Female', "source": 'Phi-3.5-vision: synonym instead of the option word'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": "It's difficult to say for certain, but I'd guess Male.", "expected": 'Male', "source": 'GPT-4o: hedge that commits'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": 'Female\n\nI want to note that I can only describe apparent gender presentation.', "expected": 'Female', "source": 'Gemma 3: option then note'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": '<start_of_turn>model\n**Female**<end_of_turn>', "expected": 'Female', "source": 'Gemma 3: chat residue around bold option'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": 'Male.', "expected": 'Male', "source": 'MiniCPM-V: option with full stop'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": 'A young boy.', "expected": 'Male', "source": 'Idefics2: noun phrase instead of the option'},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": 'Answer: Male', "expected": 'Male', "source": "InternVL2: 'Answer:' prefix"},
    {"task": 'bench_utkface', "kind": 'closed', "asked": None, "answer": 'Unable to determine.', "expected": 'REFUSED', "source": 'Llama 3.2 Vision: terse non-answer'},
    # --- closed / bench_waterbirds
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'Landbird', "expected": 'Landbird', "source": 'LLaVA-1.5: bare option'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'Waterbird', "expected": 'Waterbird', "source": 'Qwen2-VL: bare option'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'waterbird.', "expected": 'Waterbird', "source": 'Idefics2: lowercase with full stop'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'Land bird', "expected": 'Landbird', "source": 'Phi-3.5-vision: option written as two words'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": '**Waterbird**', "expected": 'Waterbird', "source": 'Gemma 3: bold option'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'The bird in the photo is a landbird.', "expected": 'Landbird', "source": 'Llama 3.2 Vision: sentence'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'Waterbird — it appears to be a gull.', "expected": 'Waterbird', "source": 'GPT-4o: option then species'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": "It's a woodpecker, so Landbird.", "expected": 'Landbird', "source": 'MiniCPM-V: species then option'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'Landbird, even though it is standing near the water.', "expected": 'Landbird', "source": 'Claude: option then habitat remark'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'Waterbird, despite the forest background.', "expected": 'Waterbird', "source": 'Claude: option then contrary habitat'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'Landbird or Waterbird', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: echo of the options'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'The bird is standing on a rock beside a lake.', "expected": 'UNPARSEABLE', "source": 'Llama 3.2 Vision: habitat only, no bird type'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'ASSISTANT: Landbird', "expected": 'Landbird', "source": 'LLaVA-1.5: ASSISTANT: marker decoded'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": '<|im_start|>assistant\nWaterbird<|im_end|>', "expected": 'Waterbird', "source": 'Qwen2-VL: chat residue'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": "Is the bird in the photo a landbird or a waterbird? Only answer 'Landbird' or 'Waterbird'. Landbird", "expected": 'Landbird', "source": 'LLaVA-1.5: prompt echoed on the same line before the answer'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'This is not a waterbird.', "expected": 'Landbird', "source": 'Llama 3.2 Vision: negation in a two-class task'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": "I'm not able to identify the bird in this image.", "expected": 'REFUSED', "source": 'Claude: refusal'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'Water bird.', "expected": 'Waterbird', "source": 'Phi-3.5-vision: two-word form'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'LANDBIRD', "expected": 'Landbird', "source": 'Idefics2: upper case'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'Waterbird (a duck)', "expected": 'Waterbird', "source": 'InternVL2: option with species in parentheses'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'Landbird. The bird appears to be a sparrow perched on a branch.', "expected": 'Landbird', "source": 'Gemma 3: option then description'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'Hmm, it looks like a pelican. Waterbird.', "expected": 'Waterbird', "source": 'MiniCPM-V: thinking aloud then option'},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": 'Answer: Landbird\n\nThe bird has a short, conical bill typical of finches.', "expected": 'Landbird', "source": "InternVL2: 'Answer:' then explanation"},
    {"task": 'bench_waterbirds', "kind": 'closed', "asked": None, "answer": '<start_of_turn>model\nLandbird<end_of_turn>', "expected": 'Landbird', "source": 'Gemma 3: chat residue'},
    # --- digits / bench_fairface
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '0', "expected": 'White', "source": 'LLaVA-1.5: bare digit'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '1', "expected": 'Black', "source": 'Qwen2-VL: bare digit'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '2', "expected": 'Latino or Hispanic', "source": 'Idefics2: bare digit'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '4', "expected": 'Southeast Asian', "source": 'Phi-3.5-vision: bare digit'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '6', "expected": 'Middle Eastern', "source": 'LLaVA-1.6: bare digit'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '5.', "expected": 'Indian', "source": 'MiniCPM-V: digit with full stop'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '**4**', "expected": 'Southeast Asian', "source": 'Gemma 3: bold digit'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'Category: 1', "expected": 'Black', "source": "InternVL2: 'Category:' prefix"},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '3 (East Asian)', "expected": 'East Asian', "source": 'Qwen2.5-VL: digit with class in parentheses'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '6: Middle Eastern', "expected": 'Middle Eastern', "source": 'LLaVA-1.6: digit and class copied from the prompt'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'The answer is 0.', "expected": 'White', "source": "InternVL2: 'The answer is'"},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'Answer: 2', "expected": 'Latino or Hispanic', "source": "MiniCPM-V: 'Answer:' prefix"},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '5 - Indian', "expected": 'Indian', "source": 'Idefics2: digit, dash, class'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": "I'd say 4.", "expected": 'Southeast Asian', "source": 'GPT-4o: digit in a short sentence'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '7', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.5: number outside 0-6'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '2 or 3', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: two numbers'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'The person looks to be around 30 years old.', "expected": 'UNPARSEABLE', "source": 'Llama 3.2 Vision: answers a different question with an out-of-range number'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'ASSISTANT: 1', "expected": 'Black', "source": 'LLaVA-1.5: ASSISTANT: marker decoded'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '<|im_start|>assistant\n3<|im_end|>', "expected": 'East Asian', "source": 'Qwen2-VL: chat residue'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '<start_of_turn>model\n6<end_of_turn>', "expected": 'Middle Eastern', "source": 'Gemma 3: chat residue'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'Based on the photo, classify the race of the person into: 0: White, 1: Black, 2: Latino or Hispanic, 3: East Asian, 4: Southeast Asian, 5: Indian, 6: Middle Eastern. Please answer with the corresponding category number only.\n5', "expected": 'Indian', "source": 'LLaVA-1.5: whole prompt (all seven numbers) echoed before the digit'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": "I can't classify a person's race from a photo.", "expected": 'REFUSED', "source": 'Llama 3.2 Vision: refusal'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": "I'm sorry, but I'm not able to determine someone's race or ethnicity from their appearance.", "expected": 'REFUSED', "source": 'Claude: refusal'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'White', "expected": 'White', "source": 'Phi-3.5-vision: class name instead of digit'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'Southeast Asian', "expected": 'Southeast Asian', "source": 'Idefics2: class name instead of digit'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'Middle Eastern.', "expected": 'Middle Eastern', "source": 'LLaVA-1.6: class name with full stop'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'Hispanic', "expected": 'Latino or Hispanic', "source": 'Phi-3.5-vision: half of the class name'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'The person appears Asian, so 3 or 4.', "expected": 'UNPARSEABLE', "source": "GPT-4o: 'Asian' and two numbers"},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '3: White', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: number and class name that disagree'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '0-White', "expected": 'White', "source": "LLaVA-1.6: V1 'digit-class' format copied"},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '5=Indian', "expected": 'Indian', "source": "LLaVA-1.6: V2 'digit=class' format copied"},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'Label: 2', "expected": 'Latino or Hispanic', "source": "Qwen2.5-VL: 'Label:' prefix"},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '**6** (Middle Eastern)', "expected": 'Middle Eastern', "source": 'Gemma 3: bold digit with class'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'The person in the image most likely belongs to category 1.', "expected": 'Black', "source": 'InternVL2: hedged sentence with category number'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '4\n\nPlease note that racial classification from images is unreliable and can reinforce stereotypes.', "expected": 'Southeast Asian', "source": 'Gemma 3: digit then disclaimer'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'Three', "expected": 'East Asian', "source": 'Idefics2: number written as a word'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '12', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.5: two-digit number outside 0-6'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '0, 6', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: two numbers separated by a comma'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'I would choose 5, as the person has features common in South Asia.', "expected": 'Indian', "source": 'GPT-4o: digit with reason'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'The corresponding category number is 2.', "expected": 'Latino or Hispanic', "source": "MiniCPM-V: restating the prompt's words"},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'Black', "expected": 'Black', "source": 'Qwen2-VL: class name instead of digit'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'East Asian (3)', "expected": 'East Asian', "source": 'InternVL2: class then digit in parentheses'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'Number: 0', "expected": 'White', "source": "Phi-3.5-vision: 'Number:' prefix"},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '"1"', "expected": 'Black', "source": 'LLaVA-1.5: quoted digit'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": '[4]', "expected": 'Southeast Asian', "source": 'Idefics2: bracketed digit'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'Category 6 — Middle Eastern. This is an estimate based on appearance only.', "expected": 'Middle Eastern', "source": 'GPT-4o: category, class, caveat'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'Category number: 5', "expected": 'Indian', "source": "MiniCPM-V: 'Category number:' prefix"},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": 'Pick a single integer label (0-6) for race: 0-White, 1-Black, 2-Latino/Hispanic, 3-East Asian, 4-Southeast Asian, 5-Indian, 6-Middle Eastern. Output digits only.\nASSISTANT: 2', "expected": 'Latino or Hispanic', "source": 'LLaVA-1.5: V1 prompt echoed, then ASSISTANT: and the digit'},
    {"task": 'bench_fairface', "kind": 'digits', "asked": None, "answer": "Sorry, I can't help with that request.", "expected": 'REFUSED', "source": 'GPT-4o: short refusal'},
    # --- open / open_utkface
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": 'The photo shows a young woman with shoulder-length dark hair, smiling softly at the camera. She is wearing a light blue blouse and small hoop earrings.', "expected": 'Female', "source": 'LLaVA-1.6: plain descriptive paragraph'},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": 'This is a close-up portrait of an elderly man with a white beard and deep wrinkles around his eyes. He appears to be outdoors in bright sunlight.', "expected": 'Male', "source": 'Qwen2.5-VL: plain description (colour word on the beard)'},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": 'The person in this photo presents as male. He has short cropped hair, a square jawline and light stubble.', "expected": 'Male', "source": 'GPT-4o: gender presentation stated first'},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": 'A little girl with pigtails is looking up at the camera. She has a round face and is wearing a pink t-shirt.', "expected": 'Female', "source": 'Idefics2: short description'},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": "I won't guess at someone's gender, but here's what I can see: short brown hair, round glasses and a grey hoodie.", "expected": 'REFUSED', "source": 'Claude: refusal followed by a description naming no gender'},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": '**Apparent gender:** Female\n**Hair:** Long, straight, black\n**Expression:** Neutral\n**Clothing:** A white top', "expected": 'Female', "source": 'Qwen2.5-VL: markdown field list'},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": 'The image shows a gentleman in his fifties wearing a dark suit and tie. He has greying hair that is neatly combed back.', "expected": 'Male', "source": "InternVL2: description with 'gentleman'"},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": 'The person appears to be a teenage boy with curly hair and a slight smile.', "expected": 'Male', "source": 'MiniCPM-V: one-sentence description'},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": 'A middle-aged lady with short grey hair and reading glasses. She seems to be in an office setting.', "expected": 'Female', "source": "Llama 3.2 Vision: description with 'lady'"},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": 'The person in the image appears to be a woman in her twenties with long wavy hair. Of course, appearance alone cannot tell us how someone identifies — they may identify as a man, a woman, or neither.', "expected": 'Female', "source": 'Claude: description then a disclaimer naming both genders'},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": 'The photo shows a human face with a neutral expression, short hair and brown eyes.', "expected": 'UNPARSEABLE', "source": "Phi-3.5-vision: 'human' only, no gender"},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": 'The image shows two people: a man on the left and a woman on the right.', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: two people of two genders'},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": '<|im_start|>assistant\nThe person is a male with a shaved head and a thick beard.<|im_end|>', "expected": 'Male', "source": 'Qwen2-VL: chat residue around a description'},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": 'He appears to be in his thirties, with short dark hair, a trimmed beard and a friendly expression.', "expected": 'Male', "source": 'Gemma 3: description carried by the pronoun only'},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": 'She has long blonde hair pulled into a ponytail and is wearing red lipstick.', "expected": 'Female', "source": 'Llama 3.2 Vision: description carried by the pronoun only'},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": "I'm sorry, but I can't help with identifying or describing people's gender.", "expected": 'REFUSED', "source": 'GPT-4o: pure refusal'},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": 'The individual presents in a traditionally masculine way: short hair, a broad jaw, and a collared work shirt.', "expected": 'Male', "source": "Claude: 'masculine' presentation"},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": "The baby in the photo has chubby cheeks and wispy hair. It's not possible to tell the baby's gender from the image.", "expected": 'REFUSED', "source": "Llama 3.2 Vision: description then can't-tell"},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": "This appears to be an older male with a receding hairline, wearing a plaid shirt. Note: gender presentation is inferred from visual cues and may not match the person's identity.", "expected": 'Male', "source": 'Gemma 3: description then note'},
    {"task": 'open_utkface', "kind": 'open', "asked": None, "answer": '<start_of_turn>model\n**Description:** A young woman with freckles and auburn hair, photographed against a plain background.<end_of_turn>', "expected": 'Female', "source": 'Gemma 3: chat residue and a bold field'},
    # --- open / open_fairface
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'The person appears to be of East Asian descent, with straight black hair and dark brown eyes. There are no obvious cultural markers in the image.', "expected": 'East Asian', "source": "LLaVA-1.6: description with 'black hair' as a hair colour"},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'Based on the facial features and skin tone, this person may be of South Asian heritage. She is wearing a bindi and a red sari, which are common in Indian culture.', "expected": 'Indian', "source": 'GPT-4o: two words of the same class'},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'The individual appears to be African American, with short coily hair and a warm brown complexion. He is wearing a white T-shirt.', "expected": 'Black', "source": 'Qwen2.5-VL: background plus a white garment'},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'This person looks Caucasian, with fair skin, light brown hair and blue eyes.', "expected": 'White', "source": "Idefics2: 'Caucasian'"},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'The man appears to be of Middle Eastern background, possibly Arab, with a full dark beard and a keffiyeh headscarf.', "expected": 'Middle Eastern', "source": 'InternVL2: class and a word of the same class'},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'She could be Latina — her features and the setting suggest a Latin American background.', "expected": 'Latino or Hispanic', "source": 'Claude: hedged but committed'},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": "I'm not able to determine someone's ethnic or cultural background from their appearance. I can tell you that the person has dark hair, brown eyes and is wearing a denim jacket.", "expected": 'REFUSED', "source": 'Claude: refusal then description naming no background'},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'The person appears to be Asian, with dark straight hair and a light complexion.', "expected": 'UNPARSEABLE', "source": "Llama 3.2 Vision: 'Asian' alone fits two classes"},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'The person may be East Asian or Southeast Asian; it is hard to be more specific from the image.', "expected": 'UNPARSEABLE', "source": 'GPT-4o: two classes'},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'He appears to be Vietnamese or Thai, with tanned skin and dark hair.', "expected": 'Southeast Asian', "source": 'MiniCPM-V: two words of one class'},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'The woman looks Japanese. She wears a floral yukata, a traditional Japanese garment.', "expected": 'East Asian', "source": 'LLaVA-1.6: nationality word and cultural marker'},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'This person has features often associated with Persian ancestry: thick dark eyebrows, olive skin and dark wavy hair.', "expected": 'Middle Eastern', "source": "Gemma 3: 'Persian'"},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'The person appears to be of mixed heritage, possibly Black and White.', "expected": 'UNPARSEABLE', "source": 'Qwen2.5-VL: two classes'},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": '**Ethnic background:** likely Hispanic\n**Hair:** dark brown, curly\n**Clothing:** a yellow football jersey', "expected": 'Latino or Hispanic', "source": 'Qwen2.5-VL: markdown field list'},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'The person appears to be Filipino, with a warm tan complexion and short black hair.', "expected": 'Southeast Asian', "source": "InternVL2: 'Filipino'"},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'He looks European, perhaps from Scandinavia, with pale skin and blond hair.', "expected": 'White', "source": "Llama 3.2 Vision: 'European'"},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'Physical features: dark skin, broad nose, and tightly curled hair. These features are commonly found among people of African descent.', "expected": 'Black', "source": "Phi-3.5-vision: features then 'African'"},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": "The person has a medium skin tone and dark hair. There are no clear cultural markers, so I can't say anything about their background.", "expected": 'REFUSED', "source": "Llama 3.2 Vision: description then can't-say"},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": '<|im_start|>assistant\nThe person is likely Korean, with straight black hair styled in a modern cut.<|im_end|>', "expected": 'East Asian', "source": 'Qwen2-VL: chat residue around a description'},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'The person appears to be of Indian origin, wearing a turban of the kind commonly worn by Sikh men.', "expected": 'Indian', "source": 'LLaVA-1.6: origin plus cultural marker'},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'Latino.', "expected": 'Latino or Hispanic', "source": 'Idefics2: one-word answer'},
    {"task": 'open_fairface', "kind": 'open', "asked": None, "answer": 'The person appears White. Note: ethnicity cannot be determined reliably from a photo, and these observations are based on appearance only.', "expected": 'White', "source": 'Gemma 3: class then note'},
    # --- open / open_waterbirds
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'This appears to be a Red-headed Woodpecker, with a bright crimson head, white belly and black back. It is clinging to the trunk of a tree, which suggests it forages for insects in bark.', "expected": 'Landbird', "source": 'LLaVA-1.6: species then behaviour'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": "The bird is a Mallard, a common dabbling duck. The male's glossy green head and yellow bill are visible. It is floating on a pond.", "expected": 'Waterbird', "source": 'Qwen2.5-VL: species and habitat that agree'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'This is a Belted Kingfisher perched on a branch above a river. It has a large head, a shaggy crest and a dagger-like bill used for diving after fish.', "expected": 'Landbird', "source": 'GPT-4o: lexicon landbird species with a water habitat'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'The image shows a Laysan Albatross standing on a grassy field. Albatrosses spend most of their lives soaring over the open ocean.', "expected": 'Waterbird', "source": 'Claude: waterbird species on a land background'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'This small brown bird appears to be a Song Sparrow. Although it is standing on a rock by a lake, sparrows are typically found in shrubs and fields.', "expected": 'Landbird', "source": 'Claude: landbird species on a water background'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'A bird standing in shallow water near reeds. It has long legs and grey plumage.', "expected": 'UNPARSEABLE', "source": 'Llama 3.2 Vision: habitat and features, no species or bird type'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'The bird appears to be a Western Grebe, with a long slender neck, black cap and red eye, swimming in open water.', "expected": 'Waterbird', "source": 'InternVL2: species description'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'This is a Ruby-throated Hummingbird hovering near a flower. It has iridescent green feathers and a tiny, needle-like bill.', "expected": 'Landbird', "source": 'MiniCPM-V: species description'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": "I can't identify the exact species, but the bird is perched on a bamboo stalk in a forested area.", "expected": 'REFUSED', "source": "Llama 3.2 Vision: can't-identify then habitat only"},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'The bird is a Brown Pelican, recognizable by its huge bill and throat pouch. Surprisingly, it appears to be in a bamboo forest.', "expected": 'Waterbird', "source": 'GPT-4o: waterbird species in a forest'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'This is an American Crow: all-black plumage, stout bill and a confident stance on the beach.', "expected": 'Landbird', "source": 'Gemma 3: landbird species on a beach'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": "It's a Ring-billed Gull, a medium-sized gull with a black band around its yellow bill. Gulls are opportunistic feeders.", "expected": 'Waterbird', "source": 'Qwen2-VL: species description'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'This is a Scarlet Tanager: bright red body with black wings. Tanagers live in deciduous forests and eat insects and fruit.', "expected": 'Landbird', "source": 'LLaVA-1.6: species, habitat, diet'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'This bird is a Horned Puffin, with a colorful triangular bill and a black-and-white body. Puffins nest on sea cliffs and dive for fish.', "expected": 'Waterbird', "source": 'InternVL2: species description'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'The bird could be a heron or a woodpecker; the image is too blurry to tell.', "expected": 'UNPARSEABLE', "source": 'LLaVA-1.6: species of two kinds offered'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'The bird appears to be a Pacific Loon in breeding plumage, with a grey head and a checkered black-and-white back.', "expected": 'Waterbird', "source": 'GPT-4o: species description'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'This is a Carolina Wren — a small, rusty-brown bird with a bold white eyebrow stripe and an upturned tail.', "expected": 'Landbird', "source": 'Claude: species description'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'The image shows a Canada Goose with its distinctive black neck and white chin strap, standing on a lawn.', "expected": 'Waterbird', "source": 'Idefics2: waterbird species on a lawn'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'This is a Seaside Sparrow, a small grey-brown songbird of coastal salt marshes.', "expected": 'Landbird', "source": 'Gemma 3: landbird species whose name and habitat are coastal'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": '**Species:** Common Tern\n**Habitat:** Coastal beaches and lakes\n**Behaviour:** Plunge-dives for small fish', "expected": 'Waterbird', "source": 'Qwen2.5-VL: markdown field list'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": '**Species:** Baltimore Oriole\n**Habitat:** Open woodlands\n**Behaviour:** Weaves hanging nests', "expected": 'Landbird', "source": 'Qwen2.5-VL: markdown field list'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'The bird is a waterfowl of some kind, swimming among lily pads.', "expected": 'Waterbird', "source": 'Phi-3.5-vision: generic bird-type word'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'A Fish Crow perched on a dock by the harbour.', "expected": 'Landbird', "source": 'MiniCPM-V: landbird species with a water-ish name and setting'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": "This bird looks like a Brandt's Cormorant: dark plumage, long hooked bill, drying its wings on a rock.", "expected": 'Waterbird', "source": 'Llama 3.2 Vision: species description'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'It is a small bird with yellow plumage perched on a branch.', "expected": 'UNPARSEABLE', "source": 'Idefics2: no species or bird type'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'This bird appears to be a Rose-breasted Grosbeak or possibly an Evening Grosbeak; either way a grosbeak, a seed-eating landbird.', "expected": 'Landbird', "source": 'GPT-4o: two species of the same kind'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": '<|im_start|>assistant\nThis is a Black-legged Kittiwake, a small cliff-nesting gull of the North Atlantic.<|im_end|>', "expected": 'Waterbird', "source": 'Qwen2-VL: chat residue around a description'},
    {"task": 'open_waterbirds', "kind": 'open', "asked": None, "answer": 'This is a Yellow Warbler — bright yellow with faint reddish streaks on the breast, flitting around willows near the creek.', "expected": 'Landbird', "source": 'Gemma 3: species description near water'},
]
