"""The words the extractor reads values with: regular-expression pieces for names, places,
organisations and phrases, and closed lists (roles, diets, nationalities, languages). The
patterns match them, and the durable reader takes a nationality or language fact's values from
the lists ("dual citizenship, Irish and Dutch" is two nationalities)."""

from __future__ import annotations

import re

NATIONALITIES = (
    "Dutch|German|French|British|English|American|Canadian|Irish|Scottish|Welsh|Spanish|"
    "Italian|Portuguese|Swedish|Danish|Norwegian|Finnish|Polish|Czech|Austrian|Swiss|Belgian|"
    "Greek|Turkish|Indian|Chinese|Japanese|Korean|Brazilian|Mexican|Australian|Russian|"
    "Ukrainian|Romanian|Hungarian|Nigerian|Kenyan|Egyptian|Moroccan|Filipino|Vietnamese|Thai|"
    "Jamaican|Ghanaian|South\\s+African|Pakistani|Bangladeshi|Sri\\s+Lankan|Nepalese|Iranian|"
    "Iraqi|Syrian|Lebanese|Israeli|Palestinian|Saudi|Emirati|Ethiopian|Somali|Sudanese|"
    "Zimbabwean|Ugandan|Tanzanian|Argentinian|Argentine|Chilean|Colombian|Peruvian|Venezuelan|"
    "Cuban|Puerto\\s+Rican|Dominican|Indonesian|Malaysian|Singaporean|Taiwanese|New\\s+Zealander|"
    "Icelandic|Estonian|Latvian|Lithuanian|Slovak|Slovenian|Croatian|Serbian|Bosnian|Bulgarian|"
    "Albanian|Georgian|Armenian|Kazakh|Uzbek|Afghan|Kurdish|Cypriot|Maltese|Luxembourgish|"
    "Jordanian|Algerian|Tunisian|Libyan|Yemeni|Omani|Qatari|Kuwaiti|Bahraini|Hawaiian|"
    "Senegalese|Cameroonian|Ivorian|Rwandan|Zambian|Malawian|Mozambican|Angolan|Namibian|"
    "Botswanan|Congolese|Eritrean|Burmese|Cambodian|Laotian|Mongolian|Tibetan|Bolivian|"
    "Ecuadorian|Paraguayan|Uruguayan|Guatemalan|Honduran|Salvadoran|Nicaraguan|Costa\\s+Rican|"
    "Panamanian|Haitian|Trinidadian|Barbadian|Belarusian|Moldovan|Macedonian|Montenegrin|"
    "Azerbaijani|Turkmen|Kyrgyz|Tajik|Fijian|Samoan|Tongan|Maori|Māori|"
    "Brit|Scot|Spaniard|Aussie|Welshman|Welshwoman|Irishman|"
    "Irishwoman|Scotsman|Scotswoman|Englishman|Englishwoman|Dutchman|Frenchman|Frenchwoman"
)
"""Nationalities by their adjective, and the nouns chat says one with ("a Scot who's lived
in London", "Aussie sparky from Townsville"; not "Finn" or "Kiwi", which are as often a name
or a fruit)."""
LANGUAGES = (
    "English|Spanish|French|German|Italian|Portuguese|Dutch|Swedish|Danish|Norwegian|Finnish|"
    "Polish|Czech|Slovak|Hungarian|Romanian|Greek|Turkish|Russian|Ukrainian|Arabic|Hebrew|"
    "Persian|Farsi|Hindi|Urdu|Bengali|Punjabi|Tamil|Telugu|Marathi|Gujarati|Malayalam|Kannada|"
    "Chinese|Mandarin|Cantonese|Japanese|Korean|Vietnamese|Thai|Indonesian|Malay|Tagalog|"
    "Filipino|Swahili|Yoruba|Igbo|Hausa|Amharic|Zulu|Afrikaans|Catalan|Basque|Galician|Welsh|"
    "Irish|Gaelic|Icelandic|Estonian|Latvian|Lithuanian|Serbian|Croatian|Bosnian|Slovenian|"
    "Bulgarian|Albanian|Macedonian|Georgian|Armenian|Kazakh|Uzbek|Mongolian|Nepali|Sinhala|"
    "Burmese|Khmer|Lao|Esperanto|Latin|ASL|BSL"
)
TITLE = r"(?:(?:St|Mt|Ft|Dr|Mr|Mrs|Ms|Prof)\.\s+)?"
"""An abbreviated title or saint before a name: "St. Mary's", "Dr. Patel", "Mt. Vernon"."""


NAME = TITLE + r"[A-Z][a-zà-ÿ'’-]+(?:\s+[A-Z][a-zà-ÿ'’-]+){0,2}"


PLACE = (
    TITLE + r"[A-Z][\wà-ÿ'’-]++(?:[\s-]+(?:(?:de|da|do|del|di|la|le|los|las|upon|am|sur)[\s-]+)?"
    r"[A-Z][\wà-ÿ'’-]++){0,3}"
)
"""A place's name, of up to four capitalised words, with the small words between them that
names of places keep in lower case ("Rio de Janeiro", "Newcastle upon Tyne", "Frankfurt am
Main"). Each word is taken whole (possessive): a run of hyphenated capitals costs time in
proportion to its length, not more."""


_NOT_AN_EMPLOYER = (
    r"home|work|nights?|days?|weekends?|school|uni|college|university|hospital|a|an|the|my|our|"
    r"his|her|their|this|that|myself|least|most|times?|first|last|best|worst|all|once|moment|"
    r"present|large|random|heart|peace|ease|risk|scale|church|gym|odd|different|various|several|"
    r"two|three|multiple|sea|bedtime|sunrise|sunset|dawn|dusk|midnight|noon|breakfast|lunch|"
    r"lunchtime|dinner|dinnertime|high|grad|middle|elementary|primary|secondary|nursery|play|"
    r"rest|war|speed|length|will"
)
ORG_IN_LOWER_CASE = (
    rf"(?<=\bat\s)(?!(?:{_NOT_AN_EMPLOYER})\b)"
    r"(?:st\.?\s+)?[a-z][\w&'’.-]*(?:\s+(?!(?:and|but|so|for|in|on|at|with|now|these|since|"
    r"who|where|because|bc|as|of|to|until|till|right|full|part|every|too)\b)[a-z][\w&'’-]*)"
    r"{0,2}(?<!school)(?<!college)(?<!hospital)(?<!home)(?<!work)(?<!time)(?<!day)(?<!night)"
    r"(?=\s*[,.;!?—–(-]|\s*$|\s+(?:and|but|so|now|these|since|for|in|bc|as|full|part)\b)"
)
"""An organisation typed in lower case, where only a work frame introduces it with "at" ("I'm a
backend dev at klarna", "nurse at st. luke's", "I teach science at lincoln middle"): one to
three words, then the sentence's or clause's end; not a time or a place of the day ("at home",
"at night", "at bedtime", "at high school"), a determiner ("at a startup" says no name) or a
phrase ("at least", "at ease"). "for" and "with" take a capital: "a developer with adhd", "a
writer for hire" and "I work for tips" name no employer."""


ORG = (
    rf"(?:{TITLE}[A-Z][\w&'’-]*(?:\s+(?:&\s+|of\s+|and\s+(?!I\b))?(?!I\b)[A-Z][\w&'’-]*){{0,4}}"
    r"|the\s+[a-z]+(?:\s+[a-z]+){0,3}\s+(?:hospital|university|bank|school|ministry|council|"
    r"company|agency|firm|startup|store|shop|library|museum|clinic|office))"
)


PHRASE = r"[^,.;!?]{1,80}?"
"""A value: up to 80 characters within a clause (bounded, so a long run of text without its
closing word is not searched from every start)."""


END = (
    r"(?=\s+(?:but|because|since|so|and\s+I|and\s+my|until|till|from|as\s+of)\b|[,.;!?]|$"
    r"|\s+[—–-]+\s)"
)


I_AM = r"\bI(?:'m|’m|\s+am)"


ROLE_NOUNS = (
    "manager|engineer|developer|designer|accountant|lead|director|analyst|consultant|teacher|"
    "nurse|doctor|scientist|researcher|student|architect|officer|administrator|admin|owner|"
    "founder|ceo|cto|cfo|coo|vp|president|head|specialist|coordinator|assistant|writer|editor|"
    "lawyer|attorney|recruiter|marketer|representative|technician|tech|intern|programmer|tester|"
    "planner|chef|cook|pharmacist|professor|lecturer|trainer|coach|agent|clerk|supervisor|"
    "therapist|psychologist|counsel+or|photographer|artist|musician|pilot|driver|mechanic|"
    "electrician|plumber|carpenter|farmer|freelancer|contractor|journalist|economist|dentist|"
    "surgeon|paramedic|firefighter|executive|strategist|copywriter|translator|librarian|"
    "secretary|receptionist|cashier|salesperson|waiter|waitress|barista|baker|veterinarian|"
    "vet|physiotherapist|scrum master|product owner|data scientist|dev|paralegal|midwife|"
    "carer|caregiver|retiree|hairdresser|barber|plasterer|builder|joiner|roofer|"
    "bricklayer|labourer|laborer|welder|decorator|painter|tiler|gardener|landscaper|cleaner|"
    "housekeeper|caretaker|janitor|nanny|childminder|courier|postman|postwoman|bartender|"
    "butcher|florist|shopkeeper|optician|physio|social\\s+worker|teaching\\s+assistant|"
    "headteacher|headmaster|headmistress|sparky|chippy|porter|warden|guard|miner|fisherman|"
    "soldier|sailor|police\\s+officer|detective|chemist|hygienist|radiographer"
)


OCCUPATIONS = (
    ROLE_NOUNS
    + "|actor|actuary|acupuncturist|adjuster|animator|archaeologist|archivist|astronomer|auditor|"
    "banker|barrister|biochemist|bookkeeper|bookseller|brewer|broker|buyer|cartographer|"
    "chiropractor|conveyancer|curator|dancer|dealer|dietitian|dietician|ecologist|examiner|"
    "geologist|illustrator|inspector|interpreter|lobbyist|merchandiser|meteorologist|"
    "microbiologist|nutritionist|optometrist|osteopath|pathologist|physicist|podiatrist|"
    "practitioner|presenter|producer|proofreader|psychiatrist|solicitor|statistician|surveyor|"
    "technologist|trader|treasurer|tutor|underwriter|postie|farmhand|groomer|lifeguard|ranger|"
    "controller|crew|steward|stewardess|attendant|operator|handler|dispatcher|machinist|fitter|"
    "glazier|locksmith|upholsterer|seamstress|tailor|cobbler|fishmonger|grocer|packer|picker|"
    "deckhand|docker|bouncer|doorman|concierge|valet|chauffeur|cabbie|trucker|notary|sommelier|"
    "shepherd|beekeeper|winemaker|gamekeeper|zookeeper|worker|apprentice|trainee|resident|"
    "registrar|medic|doula|sonographer|phlebotomist|audiologist|orthodontist|radiologist|"
    "anaesthetist|anesthetist|cardiologist|teller|undergrad|postgrad|pupil|sysadmin|devops|"
    "analyst|auxiliary|hand|guide|instructor|invigilator|volunteer|estimator|buyer|stylist|"
    "beautician|manicurist|tattooist|masseur|masseuse|housekeeper|carpenter|mason|electrician"
)
"""Occupations, for the name reader to weigh whether one is the user's ("ten years pushing beds
around St James's as a porter", "Postie in Glasgow"): the role nouns the patterns read, and
more (a few from Faker's job titles, the rest trades and everyday work), none of which a
pattern reads by itself."""


DIETS = (
    "vegetarian|vegan|pescatarian|pescetarian|flexitarian|gluten[- ]free|dairy[- ]free|"
    "plant[- ]based|keto|halal|kosher"
)


CODE = (
    r"python|rust|golang|go|java|javascript|typescript|kotlin|swift|scala|elixir|haskell|ruby|"
    r"php|c\+\+|c#|perl|clojure|erlang|dart|lua|julia|fortran|cobol|matlab|sql|bash|"
    r"terraform|postgres(?:ql)?|mysql|mongodb|react|vue|angular|django|rails|flask|spring|"
    r"kubernetes|k8s|docker|aws|azure|gcp|excel|sap|salesforce|figma|tableau|power\s+bi|"
    r"unity|unreal|blender|photoshop|autocad|solidworks"
)
"""Languages and tools of the trade, as a work sentence names them in lower case ("i write
rust for a living", "mostly terraform all day"): only where a frame of their own says it."""


DEVICES = r"iPad|iPhone|Kindle|MacBook(?:\s+(?:Air|Pro))?|Chromebook|Apple\s+Watch|Fitbit"
"""Devices by their brand's name, which is no other word ("Mac", "Pixel" and "Galaxy" are)."""
AIDS = (
    r"hearing\s+aids?|wheelchair|CPAP(?:\s+machine)?|screen\s+reader|epi-?pen|insulin\s+pump|"
    r"walking\s+stick|mobility\s+scooter|glucose\s+monitor|inhaler|cochlear\s+implant|"
    r"guide\s+dog|stair\s*lift"
)
AIDS_AND_DEVICES = rf"{DEVICES}|Android(?:\s+phone)?|Mac|Pixel|Galaxy|{AIDS}"
"""Devices and aids a user has ("on my iPad", "I use a wheelchair most days")."""


PRONOUNS = frozenset("it this that them you him her these those there one something".split())


EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"

HEALTH = (
    r"asthmatic|diabetic|type\s+[12]\s+diabetic|pre-?diabetic|dyslexic|dyspraxic|coeliac|celiac|"
    r"epileptic|autistic|anaemic|anemic|colou?r-?blind|deaf|hard\s+of\s+hearing|hypertensive|"
    r"immunocompromised|insulin[- ]dependent|neurodivergent|lactose[- ]intolerant|blind|"
    r"partially\s+sighted|visually\s+impaired"
)
"""A condition said by its adjective ("I'm dyslexic", "coeliac here", "I'm lactose intolerant":
a condition, which the diet it calls for follows from)."""
CONDITIONS = (
    r"(?:mild\s+|severe\s+|chronic\s+|bad\s+|type\s+[12]\s+)?(?:asthma|diabetes|adhd|"
    r"autism|dyslexia|dyspraxia|epilepsy|migraines?|arthritis|(?:coeliac|celiac)\s+disease|"
    r"crohn['’]?s(?:\s+disease)?|ibs|eczema|psoriasis|anxiety|depression|ptsd|ocd|hypertension|"
    r"high\s+blood\s+pressure|pcos|endometriosis|lupus|multiple\s+sclerosis|fibromyalgia|"
    r"long\s+covid|tinnitus|sleep\s+apno?ea|insomnia|glaucoma|colou?r\s*blindness|hearing\s+loss|"
    r"a\s+bad\s+back|bad\s+knees|a\s+heart\s+condition|gout|hypothyroidism|hyperthyroidism|"
    r"anaemia|anemia|scoliosis|sciatica|narcolepsy|bipolar(?:\s+disorder)?|atrial\s+fibrillation|"
    r"a-?fib|copd|heart\s+failure|kidney\s+disease|osteoporosis|parkinson['’]?s|"
    r"osteoarthritis|rheumatoid\s+arthritis|dermatitis(?:\s+herpetiformis)?|raynaud['’]?s|"
    r"hashimoto['’]?s|plantar\s+fasciitis|acid\s+reflux|reflux|gerd|high\s+cholesterol|"
    r"spina\s+bifida|cerebral\s+palsy|cystic\s+fibrosis|sickle\s+cell(?:\s+disease)?|"
    r"coeliac|celiac|flat\s+feet|rosacea|vertigo|"
    r"(?-i:MS|ADD)(?=\s*(?:[,.;!?]|$)|\s+(?:and|so|but|since|too|lol|btw)\b))"
)
"""A lasting condition said by its noun ("I have asthma", "I've got type 2 diabetes"); "MS"
and "ADD" only in capitals and said whole ("I have MS Teams open", "add-ons" are none)."""
CUISINES = (
    r"thai|korean|japanese|chinese|indian|mexican|italian|french|greek|turkish|lebanese|"
    r"vietnamese|spanish|ethiopian|moroccan|persian|peruvian|brazilian|caribbean|jamaican|"
    r"filipino|indonesian|malaysian|sri\s+lankan|nepalese|pakistani|american|cajun|creole|"
    r"mediterranean|middle\s+eastern|tex-mex|sichuan|szechuan|cantonese|german|polish|russian|"
    r"georgian|korean\s+bbq|nigerian|ghanaian|portuguese|british|irish"
)
"""Cuisines, as a favourite is said of them ("thai is hands down my favourite cuisine")."""
_NAMED = {
    "nationality": re.compile(rf"\b(?:{NATIONALITIES})\b", re.IGNORECASE),
    "language": re.compile(rf"\b(?:{LANGUAGES})\b", re.IGNORECASE),
}


def is_a_nationality(text: str) -> bool:
    """Whether the text is a nationality and nothing more ("Jordanian", "polish")."""
    return _NAMED["nationality"].fullmatch(text) is not None


def listed_values(slot: str, text: str) -> list[str]:
    """Every nationality or language the text names, in order, once each (as written)."""
    vocabulary = _NAMED.get(slot)
    if vocabulary is None:
        return []
    found: list[str] = []
    for match in vocabulary.finditer(text):
        if match.group().casefold() not in {value.casefold() for value in found}:
            found.append(match.group())
    return found
