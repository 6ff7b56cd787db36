"""The words that map an answer back to a class, and the phrases that mark refusals, hedges,
notes and negations; `nhfair_jax.lvlm.parse` reads answers with them.

A phrase written "!no" is the answer "No" only where it stands as one: at the end of its clause
or before a word that starts a sentence ("No it isn't", "No, the hair is straight"); before a
noun it is a determiner ("no bangs", "no doubt", "no obstruction") and only negates.

A lexicon is, per class, a tuple of phrases (whole words, case-insensitive; a phrase also
matches its plural with a trailing "s" / "es" on its last word). A phrase written "=word" is
*bare*: it counts only when a clause consists of it alone ("Other." is the class Others, "other
features" is nothing). A phrase written "~word" is *specific* (a species, a kind of person): it
names its class, but "not a duck" does not say that the bird is a landbird, so a negated
specific phrase is not evidence for the other class of a binary task. A phrase written "^word"
is a *colour word*: it names its class only at the end of its clause or before one of the
lexicon's colour nouns ("a white man", "dark skin"); before any other word it describes a
thing ("a white thobe", "dark hair").

Sources:
- BENCHMARK: NH-Fair's Appendix C.3.3 keyword lexicons and its code's `_extract_waterbird_label`
  (the Waterbirds species lists, "woodlands" left out: a habitat never decides).
- UTKFACE: the data set's own race definitions (Asian: Chinese, Japanese, Korean, Vietnamese,
  Filipino, Thai...; Indian: India, Pakistan, Bangladesh...; Others: Hispanic, Latino, Middle
  Eastern), for the study's race list [white, black, asian, indian, others].
- OURS: synonyms of the study's class names (occupation words, age and skin-tone words), the
  further land-bird and water-bird words of CUB's families (Waterbirds is built from CUB:
  its water birds are the seabird and waterfowl families, every other family is a land bird),
  pronouns for open-ended gender descriptions, and the refusal / hedge / note phrasing, from
  answers of LLaVA, Qwen-VL, Gemma and Llama models.
"""

from __future__ import annotations

# An answer of one word in another language (models answer an English prompt in Chinese,
# Spanish, French, German, Portuguese or Italian now and then; OURS): bare phrases, so a word
# counts only as the whole of its clause.
_OTHER_NO = ("=non", "=nein", "=não", "=nao", "=否", "=不是", "=不", "=不对", "=没有")
_OTHER_YES = ("=sí", "=si", "=oui", "=ja", "=sim", "=是", "=是的", "=对", "=对的", "=有")
_OTHER_MALE = ("=hombre", "=masculino", "=varón", "=homme", "=masculin", "=mann",
               "=männlich", "=homem", "=uomo", "=maschio", "=maschile", "=男", "=男性",
               "=男人", "=男士", "=男子")
_OTHER_FEMALE = ("=mujer", "=femenino", "=femme", "=féminin", "=frau", "=weiblich",
                 "=mulher", "=feminino", "=donna", "=femmina", "=femminile", "=女", "=女性",
                 "=女人", "=女士", "=女子")

YES_NO = (("!no", "nope", "nah", "=not", "=not really", "=not at all", "=definitely not",
           "=certainly not", "=absolutely not", "=of course not", "=probably not",
           "=likely not", "=i don't think so", "=i do not think so", "=negative",
           "=incorrect", *_OTHER_NO),
          ("yes", "yeah", "yep", "yup", "affirmative", "=correct", "=i think so",
           "=that's right", "=that is right", "=indeed", "=absolutely", "=definitely",
           "=certainly", "=of course", *_OTHER_YES))

GENDER = (("male", "man", "men", "masculine", "~boy", "~gentleman", "~gentlemen", "~guy",
           "~father", "~husband", "~businessman", *_OTHER_MALE),
          ("female", "woman", "women", "feminine", "~girl", "~lady", "~ladies", "~mother",
           "~wife", "~businesswoman", *_OTHER_FEMALE))
# Open-ended descriptions name the person by pronoun as often as by noun (OURS).
GENDER_OPEN = ((*GENDER[0], "~he", "~him", "~his", "~himself"),
               (*GENDER[1], "~she", "~her", "~hers", "~herself"))

AGE = (("young", "younger", "youth", "~child", "~teenager", "~teen", "~kid", "~young adult",
        "~adolescent", "~toddler", "~baby", "~infant", "=joven", "=jeune", "=jung", "=jovem",
        "=giovane", "=青年", "=年轻", "=年轻人", "=少年", "=儿童"),
       ("middle", "middle aged", "middle age", "~midlife", "~mid aged",
        "=mediana edad", "=de mediana edad", "=edad media", "=d'âge moyen", "=mittleren alters",
        "=meia idade", "=mezza età", "=中年", "=中年人"),
       ("old", "older", "elderly", "~senior", "~older adult", "=anciano", "=anciana",
        "=viejo", "=vieja", "=vieux", "=âgé", "=âgée", "=alt", "=idoso", "=idosa", "=anziano",
        "=老年", "=老年人", "=老人", "=mayor", "=persona mayor", "=edad avanzada"))  # "aged 34" is not old
SKIN = (("^light", "^lighter", "~fair", "~pale", "light skinned", "light skin", "=claro",
         "=clara", "=clair", "=hell", "=浅色", "=浅", "=白皙"),
        ("^medium", "~olive", "~tan", "~tanned", "medium skinned", "medium skin", "=medio",
         "=media", "=moyen", "=mittel", "=中等", "=中"),
        ("^dark", "^darker", "~deep", "dark skinned", "dark skin", "=oscuro", "=oscura",
         "=foncé", "=dunkel", "=escuro", "=深色", "=深", "=黝黑"))
UTK_RACE = (("^white", "~caucasian", "~european", "=blanco", "=blanca", "=blanc", "=weiß",
             "=weiss", "=branco", "=branca", "=bianco", "=bianca", "=blanche", "=白人",
             "=白种人"),
            ("^black", "~african", "~african american", "=negro", "=negra", "=noir", "=schwarz",
             "=preto", "=nero", "=nera", "=noire", "=preta", "=黑人", "=黑种人"),
            ("asian", "~east asian", "~southeast asian", "~chinese", "~japanese", "~korean",
             "~vietnamese", "~filipino", "~thai", "=asiático", "=asiática", "=asiatico",
             "=asiatique", "=asiatisch", "=亚洲人", "=亚裔", "=东亚人", "=黄种人"),
            ("indian", "~south asian", "~pakistani", "~bangladeshi", "=indio", "=india",
             "=indien", "=indienne", "=indisch", "=indiano", "=印度人", "=南亚人"),
            ("others", "=other", "~hispanic", "~latino", "~latina", "~middle eastern",
             "~mixed race", "~multiracial", "~biracial", "~arab", "~american indian",
             "~native american", "~indigenous", "~first nations", "~alaska native", "=otro",
             "=otros", "=autre", "=autres", "=andere", "=其他", "=其他人"))
# Native Americans are not FairFace's Indian (South Asian) and have no class of their own there
FAIRFACE_IGNORE = ("american indian", "native american", "american indians",
                   "native americans")
# BENCHMARK C.3.3 (FairFace open-ended), class order of FairFace's race labels.
FAIRFACE_RACE = (("^white", "~caucasian", "~european"),
                 ("^black", "~african", "~african american"),
                 ("latino or hispanic", "latino", "~latina", "~latin", "hispanic", "~latinx"),
                 ("east asian", "~chinese", "~korean", "~japanese"),
                 ("southeast asian", "south east asian", "~thai", "~vietnamese", "~filipino",
                  "~filipina"),
                 ("indian", "south asian", "~desi"),
                 ("middle eastern", "~arab", "~arabic", "~persian"))

# BENCHMARK `_extract_waterbird_label` (first the generic words, then the species), then OURS:
# CUB's further land-bird families and common wading / shore birds a reader takes for water
# birds. Habitat words (lake, ocean, forest, woodlands) are in neither list.
WATERBIRDS = (("landbird", "land bird", "terrestrial bird", "ave terrestre", "oiseau terrestre",
               "=landvogel", "=陆鸟", "=陆禽", "~sparrow", "~robin", "~thrush",
               "~vulture", "~warbler", "~woodpecker", "~wren", "~jay", "~finch", "~bunting",
               "~oriole", "~swallow", "~flycatcher", "~tanager", "~grosbeak", "~hummingbird",
               "~crow", "~raven", "~kingbird", "~nuthatch", "~creeper", "~cuckoo",
               "~thrasher", "~vireo", "~kingfisher", "~meadowlark", "~cowbird", "~grackle",
               "~lark",
               "~songbird", "~perching bird", "~passerine", "~blackbird", "~bobolink",
               "~cardinal", "~catbird", "~goldfinch", "~junco", "~mockingbird", "~nighthawk",
               "~ovenbird", "~pewee", "~phoebe", "~pipit", "~redstart", "~shrike",
               "~starling", "~towhee", "~waxwing", "~whip poor will", "~yellowthroat",
               "~flicker", "~sapsucker", "~hawk", "~eagle", "~owl", "~pigeon", "~dove",
               "~parrot", "~magpie", "~chickadee", "~titmouse", "~bluebird"),
              ("waterbird", "water bird", "aquatic bird", "ave acuática", "ave acuatica",
               "oiseau aquatique", "=wasservogel", "=uccello acquatico", "=水鸟", "=水禽",
               "~waterfowl", "~duck", "~goose",
               "~swan", "~seagull", "~heron", "~seabird", "~sea bird", "~albatross", "~tern",
               "~gull", "~cormorant", "~pelican", "~puffin", "~loon", "~grebe", "~auklet",
               "~jaeger", "~kittiwake", "~fulmar", "~merganser", "~guillemot",
               "~frigatebird", "~gadwall", "~mallard",
               "~shorebird", "~wading bird", "~egret", "~sandpiper", "~plover", "~stork",
               "~flamingo", "~ibis", "~coot", "~booby", "~petrel", "~shearwater", "~skua",
               "~murre", "~anhinga", "~teal", "~eider", "~scoter"))

# The 52 FACET person classes in the study's list order (its utils.py / eval_semantic_sim.py),
# each with OURS synonyms where a synonym names no other class, and for the classes named by
# what the person does, that activity ("playing the guitar", "riding a skateboard").
OCCUPATION_SYNONYMS = {
    "ballplayer": ("ball player", "baseball player"),
    "gardener": ("gardening", "=jardinero", "=jardinera", "=jardinier", "=gärtner",
                 "=jardineiro", "=giardiniere", "=园丁"),
    "nurse": ("=enfermera", "=enfermero", "=infirmière", "=infirmier", "=krankenschwester",
              "=krankenpfleger", "=pflegekraft", "=enfermeira", "=infermiera", "=护士"),
    "gymnast": ("balance beam", "on a beam", "on the beam", "uneven bars", "parallel bars",
                "pommel horse", "=gimnasta", "=gymnaste", "=turner", "=turnerin", "=ginnasta",
                "=体操运动员"),
    "computer_user": ("computer user",),
    "craftsman": ("craftsmen", "craftsperson", "craftswoman", "artisan"),
    "disk_jockey": ("disk jockey", "disc jockey", "dj"),
    "doctor": ("physician",),
    "fireman": ("firemen", "firefighter"),
    "flutist": ("flautist", "flute player", "playing the flute", "playing a flute",
                "playing flute", "plays the flute"),
    "guard": ("security guard",),
    "guitarist": ("guitar player", "playing guitar", "playing the guitar", "playing a guitar",
                  "strumming a guitar"),
    "hairdresser": ("hairstylist", "hair stylist", "barber"),
    "horseman": ("horsemen", "horsewoman", "horse rider", "equestrian", "jockey",
                 "riding a horse", "on horseback", "horseback riding"),
    "laborer": ("labourer", "construction worker", "manual laborer", "shoveling",
                "shovelling"),
    "lawman": ("lawmen", "police officer", "policeman", "policewoman", "cop"),
    "motorcyclist": ("motorcycle rider", "motorbike rider"),
    "prayer": ("worshipper", "worshiper", "praying"),
    "referee": ("umpire",),
    "repairman": ("repairmen", "repairperson", "mechanic"),
    "reporter": ("journalist",),
    "boatman": ("boatmen",),
    "seller": ("vendor", "street vendor", "salesperson"),
    "retailer": ("shopkeeper", "store clerk"),
    "singer": ("vocalist", "singing"),
    "skateboarder": ("skater", "skateboarding", "riding a skateboard", "on a skateboard"),
    "soccer_player": ("soccer player",),
    "student": ("pupil", "schoolboy", "schoolgirl"),
    "tennis_player": ("tennis player",),
    "trumpeter": ("trumpet player", "playing the trumpet", "playing a trumpet",
                  "playing trumpet", "plays the trumpet"),
    "waiter": ("waitress",),
    "climber": ("rock climber", "mountaineer"),
    "runner": ("jogger",),
    "dancer": ("ballerina", "dancing", "pirouette", "=bailarín", "=bailarina", "=danseur",
               "=danseuse", "=tänzer", "=tänzerin", "=dançarino", "=dançarina",
               "=ballerino", "=舞者", "=舞蹈演员"),
    "bartender": ("barman", "barmaid"),
    "speaker": ("public speaker", "at a podium", "at the podium", "behind a podium",
                "behind the podium", "at a lectern", "at the lectern", "giving a speech",
                "delivering a speech", "giving a talk"),
    "basketball_player": ("basketball player", "dribbles a basketball",
                          "dribbling a basketball", "shooting hoops"),
}


def occupation_lexicon(classes) -> tuple:
    """Per class of `classes` (FACET names), the class name and its synonyms."""
    return tuple((c.replace("_", " "), *OCCUPATION_SYNONYMS.get(c, ())) for c in classes)


# The words after which a colour word names a race (PERSON_NOUNS) or a skin tone (SKIN_NOUNS),
# conjunctions included ("white or black" names two classes).
_CONJUNCTIONS = ("or", "and", "nor")
PERSON_NOUNS = ("person", "people", "man", "men", "woman", "women", "boy", "girl", "male",
                "female", "individual", "guy", "lady", "gentleman", "child", "kid", "teen",
                "teenager", "adult", "descent", "ethnicity", "heritage", "origin", "background",
                "race", "american", "african", "european", "caucasian", "subject", "persons",
                "individuals", "boys", "girls", "males", "females", *_CONJUNCTIONS)
SKIN_NOUNS = ("skin", "skinned", "complexion", "tone", "toned", "skintone", *_CONJUNCTIONS)

# Colour and size words that describe hair, clothes or the background, not the person: consumed
# before a race or skin-tone lexicon is matched ("black hair" is not an answer "Black").
_COLOURS = ("white", "black", "light", "dark", "medium", "fair", "pale", "deep", "tan",
            "olive", "brown")
_CONTEXT = ("hair", "haired", "shirt", "t-shirt", "top", "jacket", "coat", "dress",
            "background", "clothing", "clothes", "outfit", "beard", "eyes", "eyebrows",
            "sweater", "hat", "cap", "wall", "suit", "blouse", "collar", "pants", "hoodie",
            "scarf", "backdrop", "frame", "border", "teeth", "lighting", "light", "shadow",
            "shadows", "brown", "blue", "green", "grey", "gray", "red", "blonde", "blond",
            "colored", "coloured", "length", "build", "height", "shot", "sized", "size",
            "and white", "and black", "glasses", "sunglasses", "makeup", "lipstick", "tie",
            "uniform", "robe", "gown", "skirt", "jeans", "shoes", "boots", "image", "photo",
            "room", "area", "sky", "tones", "tone clothing", "object", "objects")
COLOUR_CONTEXT = tuple(f"{c} {w}" for c in _COLOURS for w in _CONTEXT) + (
    "fair to say", "fairly", "in the middle", "middle of", "middle ground", "middle school",
    "years old", "year old", "months old", "old fashioned", "deep in", "tan coloured")
AGE_CONTEXT = ("years old", "year old", "months old", "old fashioned", "in the middle",
               "middle of", "middle ground", "middle school", "middle eastern")

# Abstentions that are not a class: the single-choice question's option C, "unknown" to a
# direct question (a refusal: the model declines to choose).
UNKNOWN = ("unknown", "unsure", "uncertain", "undetermined", "indeterminate",
           "cannot tell", "can't tell", "cannot be determined", "can't be determined",
           "not determinable", "n a", "none of the above", "not applicable")

# Refusals and declines (regular expressions over the lower-cased clause, straight quotes).
_VERBS = (r"(?:determine|tell|identify|infer|assume|say|know|judge|assess|classify|label|"
          r"estimate|guess|speculate|assign|provide|answer|help|assist|comply|categori[sz]e|"
          r"discern|"
          r"ascertain|confirm|verify|predict|make (?:assumptions|judg(?:e)?ments|"
          r"determinations|inferences|a determination|that determination)|give|offer|"
          r"choose|select|pick|accurately|definitively|reliably|be used to)")
REFUSAL_PATTERNS = (
    r"\bi(?:'m| am) (?:sorry|afraid|unable|not able)\b", r"\bsorry\b", r"\bi apologi[sz]e\b",
    rf"\b(?:i|we|you|one)\s+(?:can ?not|can't|cannot|could ?not|couldn't|won't|will not|"
    rf"do not|don't|shouldn't|should not|am not able to|am unable to|'m unable to|'m not able "
    rf"to|must not)\s+(?:\w+\s+){{0,2}}?{_VERBS}\b",
    rf"(?:\b(?:unable|not able|impossible|not possible|not appropriate|inappropriate|not "
    rf"feasible|no way|not (?:be )?accurate|not reliable|unreliable|not ethical|unethical)|"
    rf"n't (?:possible|appropriate|feasible|ethical))"
    rf" (?:for me )?to (?:\w+\s+){{0,2}}?{_VERBS}\b",
    r"\bcan(?:'t| ?not) be (?:reliably |accurately |definitively |confidently )?(?:determined|"
    r"identified|inferred|known|told|assumed|judged|assessed|classified|assigned|given)\b",
    r"\b(?:is|are) not (?:something|a thing) (?:that )?(?:i|we|one) can\b",
    r"\bas an ai\b", r"\bnot (?:comfortable|appropriate)\b", r"\bi (?:must|have to) decline\b",
    r"\bno way to (?:know|tell|determine)\b", r"\bnot enough (?:information|context|detail)\b",
    r"\bi'd rather not\b", r"\brefrain from\b", r"\bi (?:don't|do not) know\b",
    r"\bcannot (?:be )?(?:sure|certain)\b", r"\bi (?:can't|cannot) help with\b",
    # declining phrased as a preference; a picture too poor to judge
    r"\bprefer not to\b", r"\bwould rather not\b", r"\brather not (?:say|guess|label)\b",
    r"\btoo (?:\w+ ){0,3}(?:for me )?to (?:tell|say|judge|determine|estimate|assess|gauge|"
    r"discern|identify|classify|recogni[sz]e|make out|see (?:clearly|well|the))\b",
    r"\bnot (?:clearly |easily |reliably |readily )?(?:discernible|discernable|determinable|"
    r"identifiable|distinguishable|recogni[sz]able)\b",
)
HEDGE_PATTERNS = (
    r"\bunclear\b", r"\bambiguous\b", r"\b(?:hard|difficult|tough|tricky) to (?:say|tell|"
    r"determine|judge|know)\b", r"\bi(?:'m| am) not (?:entirely |completely |100% |quite )?"
    r"(?:sure|certain)\b", r"\bnot (?:entirely |completely |100% |quite )?(?:sure|certain)\b",
    r"\bit(?:'s| is) not clear\b", r"\bcan(?:'t| ?not) be (?:sure|certain)\b",
    r"\bunsure\b", r"\buncertain\b",
)
# A sentence starting with one of these is a note or disclaimer: it and the rest of its
# paragraph are commentary around the answer, never the answer.
NOTE_PATTERN = (
    r"^(?:please note|note|notes|nb|n\.b\.|disclaimer|caveat|important|keep in mind|bear in "
    r"mind|remember|be aware|please be aware|please keep in mind|please remember|"
    r"it(?:'s| is) (?:important|worth|crucial|essential) (?:to )?(?:note|noting|remember|"
    r"mention|mentioning|emphasi[sz]e|recogni[sz]e|consider|acknowledge)|"
    r"(?:however|also|additionally|that said), (?:it(?:'s| is) (?:important|worth)|please "
    r"note|note that|keep in mind)|"
    r"i (?:should|must|want to|would like to|need to) (?:note|mention|point out|add|emphasi[sz]e"
    r"|stress|clarify)|"
    r"(?:this|my|the) (?:is |answer is |assessment is |classification is |label is |"
    r"response is |determination is |guess is |prediction is )?based (?:solely |only |purely |"
    r"entirely )?on|based (?:solely|only|purely|entirely) on (?:visual|the visual|appearance)|"
    r"gender identity|however, (?:gender|race|ethnicity|age|appearance))\b")
# Words after which the rest of a sentence is a clause of its own ("I can't be sure, but it
# looks like a woman"; "not a man but a woman").
CONTRAST_WORDS = ("but", "however", "though", "although", "nevertheless", "nonetheless",
                  "that said", "whereas")
# Negations, scoped to the rest of their clause (at most NEGATION_REACH words on, up to a
# SCOPE_BARRIERS word).
NEGATIONS = ("not", "isn't", "isnt", "aren't", "wasn't", "weren't", "never", "neither", "nor",
             "non", "without", "doesn't", "don't", "didn't", "no", "none", "unlike", "hardly",
             "cannot", "can't", "lacks", "lacking", "nothing", "wouldn't", "won't",
             "couldn't", "shouldn't", "nobody",
             "than")  # the class compared against: "closer to medium than dark"
NEGATION_PHRASES = ("rather than", "instead of", "as opposed to", "other than", "far from")
NEGATION_REACH = 7
# Idioms whose negation word negates nothing that follows ("no doubt a woman").
NOT_NEGATIONS = ("no doubt", "without a doubt", "without doubt", "not only", "no matter",
                 "nothing but", "not just", "no question", "can't help but",
                 "cannot help but")
# A negation's reach ends at a word that starts another phrase of its clause: "has no facial
# hair and appears female" negates the hair, not "female".
SCOPE_BARRIERS = ("and", "so", "yet", "while", "which", "who", "because", "since", "then",
                  "also", "but", "whereas", "thus", "hence", "therefore")
# A negation that a later one in its reach cancels: "nothing suggests this isn't a woman" and
# "no sign that the face is not visible" assert what they deny twice.
DOUBLE_OUTER = ("nothing", "nobody", "no sign", "no signs", "no evidence", "no indication",
                "no reason", "no hint", "no suggestion")
# After "no", the words that make it the answer "No" rather than a determiner ("No it isn't").
NO_ANSWER_FOLLOWERS = ("it", "it's", "its", "i", "i'm", "i'd", "the", "this", "that", "they",
                       "they're", "he", "he's", "she", "she's", "there", "there's", "not",
                       "definitely", "absolutely", "certainly", "because", "since", "as", "so",
                       "a", "an", "we", "you", "unfortunately", "sorry", "actually", "option",
                       "b", "c")
# What a colour word at the end of its clause describes: the noun nearest before it ("Her skin
# is brown and her hair is black": the hair; "The background is plain white": the background;
# "She is white": the person). A thing's colour names no class.
THING_NOUNS = ("hair", "haired", "shirt", "top", "jacket", "coat", "dress", "background",
               "clothing", "clothes", "outfit", "beard", "eyes", "eyebrows", "sweater", "hat",
               "cap", "wall", "walls", "suit", "blouse", "collar", "pants", "hoodie", "scarf",
               "backdrop", "frame", "border", "teeth", "lighting", "lights", "shadow",
               "shadows", "glasses", "sunglasses", "makeup", "lipstick", "tie", "uniform",
               "robe", "gown", "skirt", "jeans", "shoes", "boots", "image", "photo",
               "photograph", "picture", "room", "area", "sky", "object", "objects", "scene",
               "setting", "car", "bag", "floor", "table", "moustache", "mustache", "lips",
               "helmet", "headscarf", "hijab", "turban", "garment", "garments", "fabric",
               "exposure", "contrast", "colour", "color", "sunlight")
PERSON_SIDE = ("skin", "complexion", "person", "people", "man", "woman", "men", "women",
               "individual", "subject", "face", "she", "he", "they", "boy", "girl", "child",
               "tone", "skintone", "skinned", "race", "ethnicity")
# A noun after one of these only places the subject ("the person in the image is black").
PREPOSITIONS = ("in", "on", "of", "from", "behind", "with", "at", "against", "under", "near",
                "inside", "within", "beside", "around", "across", "by", "throughout")
# Light that is lighting, not a skin tone.
LIGHT_CONTEXT = ("bright light", "dim light", "natural light", "soft light", "harsh light",
                 "low light", "studio light", "ambient light", "in the light",
                 "under the light", "in light of", "poor light", "strong light")
# Words of the bird and occupation lexicons in another sense: "dove" the verb, "teal" the
# colour, knee and shin guards, "patient" the adjective.
BIRD_CONTEXT = tuple(f"dove {w}" for w in (
    "under", "into", "in", "down", "beneath", "below", "for", "off", "toward", "towards",
    "from", "after", "deep", "headfirst", "through")) + tuple(f"teal {w}" for w in (
        "coloured", "colored", "blue", "green", "wing", "wings", "feathers", "feather", "patch",
        "patches", "plumage", "head", "markings", "bird", "tinted", "hued", "color", "colour",
        "sheen", "back", "breast", "tail", "crest", "tones", "accents"))
OCCUPATION_CONTEXT = tuple(f"{w} guard" for w in (
    "knee", "shin", "mouth", "elbow", "wrist", "hand", "chest", "face", "neck", "arm",
    "finger", "splash", "rash", "nose", "ear", "leg", "cheek")) + (
    "guard rail", "guardrail", "off guard", "on guard", "patient looking", "be patient",
    "being patient", "patient with", "was patient", "is patient", "so patient", "very patient",
    "more patient", "patient and", "patient smile", "patient expression", "patient demeanor",
    "patient demeanour", "patient look", "looks patient", "seems patient")
# Class words that are adjectives before a person noun or another class word ("a patient
# teacher").
ADJECTIVE_SENSES = (("patient",),)
# A clause that commits to one of the classes an answer weighs: a cue and then the class and
# nothing else ("I lean toward asian", "closer to medium", 'so "others"', "I'd go with doctor",
# "the best fit is others")
# or the class and then a cue ('"carpenter" fits better'); "the man, leaning toward the woman"
# (no subject, an article) and "the one closer to the camera is a man" commit to nothing.
CHOICE_BEFORE = (r"\b(?:lean(?:s|ing|ed)?(?:\s+(?:more|slightly|a bit|a little))?"
                 r"(?:\s+(?:toward|towards|to))?|closer to|nearer to|more toward|more towards|"
                 r"(?:i'd|i would|i'll|i will|let's|i'm|i am) (?:say|go with|go for|pick|choose|"
                 r"settle on|going with|opt for)|(?:final|my) answer(?: is)?|"
                 r"(?:best|better|closest|nearest|likeliest|most likely) "
                 r"(?:fit|match|guess|answer|option|choice|category|label)"
                 r"(?: here| overall)? (?:is|would be|remains))\b|^\W*(?:so|thus|"
                 r"hence|therefore)\b")
CHOICE_AFTER = r"\b(?:fits? (?:better|best)|(?:is )?(?:a |the )?(?:better|best) (?:fit|match))\b"
# The words allowed beside the class in a choice clause.
CHOICE_FILLER = ("a", "an", "the", "it", "is", "its", "it's", "more", "probably", "likely",
                 "one", "option", "answer", "here", "overall", "slightly", "then", "definitely",
                 "i", "i'd", "say", "would", "so")
# ...and one its writer takes back ("Initially I'd say male, but on closer look, female").
RETRACT_CUE = (r"\b(?:initially|at first|first thought|first glance|originally|"
               r"first impression)\b")
# --- class words in another sense, decided from their neighbours (`nhfair_jax.lvlm.senses`) ---
# A nationality or ethnonym before one of these names the thing, not the person: "a Chinese
# restaurant", "a Persian rug", "the Indian Ocean", "a Latin inscription", "Arabic calligraphy"
# (plurals match too). Words of a person's origin ("descent", "heritage", "background",
# "features") are not in it.
ETHNONYM_THINGS = (
    "restaurant", "cafe", "food", "cuisine", "dish", "meal", "takeout", "menu", "market", "shop",
    "store", "grocery", "bakery", "rug", "carpet", "tapestry", "flag", "banner", "script",
    "inscription", "calligraphy", "writing", "text", "character", "lettering", "letter",
    "alphabet", "sign", "signage", "poster", "newspaper", "book", "ocean", "sea", "gulf",
    "temple", "church", "mosque", "pagoda", "shrine", "architecture", "building", "palace",
    "style", "styled", "pattern", "design", "decor", "art", "artwork", "painting", "pottery",
    "vase", "porcelain", "lantern", "music", "instrument", "language", "song", "festival",
    "garden", "tea", "silk", "fabric", "textile", "embroidery", "motif", "print", "ornament",
    "decoration", "dragon", "mural", "tile", "screen", "umbrella", "proverb", "poem", "words",
    "spice", "noodle", "rice", "car", "film", "movie", "dance", "lamp",
    "dress", "sari", "kimono", "robe", "costume", "attire", "garb", "outfit", "hat", "headdress",
    "shirt", "jacket", "scarf", "clothing", "clothes", "jewelry", "jewellery")
# Garments and belongings that a possessive noun classifies: "a man's blazer", "women's shoes"
# name a kind of blazer or shoe, not the wearer.
GARMENTS = (
    "blazer", "suit", "shirt", "jacket", "coat", "hat", "cap", "shoe", "boot", "sneaker",
    "trousers", "pants", "jeans", "sweater", "hoodie", "tie", "watch", "cologne", "perfume",
    "haircut", "hairstyle", "bicycle", "bike", "restroom", "bathroom", "clothes", "clothing",
    "wear", "fashion", "apparel", "wardrobe", "garment", "underwear", "pajamas", "robe", "dress",
    "blouse", "skirt", "gown", "heels", "handbag", "purse", "bag", "accessories", "jewelry",
    "jewellery", "uniform", "outfit", "scarf", "glasses", "belt", "wallet", "vest",
    "sweatshirt", "cardigan", "overalls", "tuxedo", "section", "department", "magazine")
# Plural person nouns whose possessive ("women's", "men's") is generic without an article.
GENERIC_POSSESSORS = ("men", "women", "ladies", "boys", "girls", "gentlemen", "children",
                      "kids", "males", "females")
# Words of a lexicon that are also verbs ("about to swallow a fish", "ready to duck into the
# hedge", "it dove"); each is the verb after "to" or a modal in its base form, after a subject
# in another form ("it ducks", "the heron swallows", "it dove"; any form after "they"), or
# before "into".
VERB_SENSES = ("swallow", "duck", "dove", "crow", "hawk", "flicker", "lark")
MODALS = ("can", "could", "will", "would", "may", "might", "must", "should", "shall", "cannot",
          "can't", "couldn't", "won't", "wouldn't", "didn't", "doesn't", "don't", "it'll",
          "they'll", "he'll", "she'll")
SUBJECT_PRONOUNS = ("it", "they", "he", "she")
VERB_PARTICLES = ("into",)
# "to" that is a preposition before them ("similar to", "next to"): a noun follows.
TO_PREPOSITIONAL = ("next", "close", "closer", "closest", "similar", "compared", "comparable",
                    "related", "akin", "due", "thanks", "according", "relative", "identical",
                    "equivalent", "opposed", "native", "common", "unique", "belongs",
                    "belonging", "home", "lean", "leans", "leaning", "leaned", "answer")
# Occupation words that are also devices: "a large speaker", "speaker stack", "turntables and
# speakers" name the loudspeaker, not a public speaker.
DEVICE_SENSES = ("speaker",)
DEVICE_MODIFIERS = ("large", "big", "huge", "giant", "massive", "small", "tiny", "portable",
                    "wireless", "bluetooth", "loud", "stereo", "audio", "pa", "floor",
                    "studio", "smart", "powered", "mounted", "mini", "wooden", "subwoofer")
DEVICE_NOUNS = ("turntable", "amplifier", "amp", "mixer", "subwoofer", "stack", "system",
                "cabinet", "box", "cone", "grille", "grill", "stand", "cable", "wire", "deck",
                "console", "woofer", "monitor", "headphones")
# A negation before a word of saying or truth denies what follows it, so that a second
# negation there asserts: "it would not be accurate to say the person is not male" (male),
# "I wouldn't say she isn't a woman" (female). "can't say" declines, it does not deny.
DENIAL_WORDS = ("accurate", "correct", "true", "right", "fair", "say", "think", "believe",
                "claim")
DENIAL_NEGATIONS = ("not", "isn't", "wasn't", "wouldn't", "don't", "doesn't", "didn't",
                    "won't", "never")
DENIALS = ("wrong", "incorrect", "inaccurate", "false", "untrue", "mistaken")
# A clause that only corrects the answer before it ("C... no, B"; "Male - wait, female").
_SECOND_LOOK = (r"on second thought|on second thoughts|on (?:a )?second look|"
                r"(?:on|upon|at|after|with) (?:a )?(?:closer|further|second|more careful) "
                r"(?:look|inspection|examination|glance)|(?:on|upon) reflection|"
                r"looking (?:again|closer|more closely|more carefully)|thinking again|"
                r"let me reconsider|having looked again")
REVISION_CUE = (r"^\W*(?:no|nope|wait|no wait|wait no|sorry|actually|well actually|"
                r"i mean|or rather|rather|correction|scratch that|make that|oops|no sorry|"
                + _SECOND_LOOK + r")\W*$")
# ...and the words that open a clause carrying the new answer itself ("However, on closer
# inspection the features suggest South Asian descent, so B. No."): only cues that cannot be
# an answer ("no" can).
REVISION_LEAD = (r"^\W*(?:(?:however|but|actually|hmm|wait)\W+)?(?:actually|" + _SECOND_LOOK
                 + r")\b")
# The end of an answer cut off while it opened another possibility ("..., which would fall
# under 'others', but it could also be"): its last sentence commits to nothing.
OPEN_ALTERNATIVE = (r"(?:\b(?:could|might|may|can|would)\s+(?:also|equally|just as well)\s+"
                    r"(?:be|pass for|belong to|fall under)|\b(?:or|or perhaps|or possibly|"
                    r"or maybe|either|rather than|as opposed to))\W*$")
# A clause that sets out the classes weighed ("Between asian and others, ..."); a later clause
# of its sentence that names one of them alone chooses it.
# A clause that only allows a class ("might suggest female", "could be black or indian"),
# which a contrasted clause after it can overrule ("..., but the jaw indicates male").
CONCESSION_CUE = r"\b(?:might|could|may|possibly|perhaps|maybe)\b"
WEIGHING_CUE = r"^\W*(?:between|among|of|out of|torn between|choosing between|either)\b"
