"""The name reader (`app.facts.named`): each name a message mentions that the patterns and the
durable reader gave no slot, read from the words around it; never someone else's."""

from __future__ import annotations

from datetime import date

import pytest

from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder
from app.facts.durable import DurableReader, said_of_the_past, values_of
from app.facts.embedded import EmbeddedExtractor, a_place_lived_in, a_town_after_in
from app.facts.extraction import Turn
from app.facts.named import (
    NameReader,
    candidates_in,
    mentions_in,
    names_in,
    occupations_in,
    rare_words_in,
    teams_in,
)
from app.facts.whose import is_the_users_now, mentions_of_the_user
from app.text.places import known_places, known_towns
from app.text.tools import tools_in

EMBEDDER = StaticEmbedder(DEFAULT_MODEL)
NAMES = NameReader.for_embedder(EMBEDDER)
WITH_NAMES = EmbeddedExtractor(DurableReader.for_embedder(EMBEDDER), NAMES)
WITHOUT_NAMES = EmbeddedExtractor(DurableReader.for_embedder(EMBEDDER))


def said_of_the_user(sentence: str) -> list[str]:
    """The names, occupations and teams of the sentence that may tell something of the user."""
    return [named.name for named in mentions_of_the_user(sentence)]


def facts(text: str, extractor: EmbeddedExtractor = WITH_NAMES) -> set[tuple[str, str]]:
    return {
        (item.slot or "", item.value or "")
        for item in extractor.extract([Turn(text, date(2026, 3, 2))])
        if item.kind == "fact"
    }


def test_the_names_of_a_sentence_are_its_runs_of_capitalised_words() -> None:
    found = names_in("Hi, I'm Priya, I work at Kwik Fit with Hartley & Sons near Leeds")
    assert [named.name for named in found] == ["Priya", "Kwik Fit", "Hartley & Sons", "Leeds"]
    sentence = "So I met Dave"
    (dave,) = names_in(sentence)
    assert sentence[dave.start : dave.end] == "Dave"


def test_a_product_written_with_a_small_i_or_e_is_a_name() -> None:
    assert [n.name for n in names_in("I use an iPhone and Xero, sold the old one on eBay")] == [
        "iPhone",
        "Xero",
        "eBay",
    ]


def test_an_occupation_is_read_with_the_words_before_it_that_say_which() -> None:
    sentence = "Ten years as a night-shift nurse, then air traffic controller at Schiphol"
    assert [n.name for n in occupations_in(sentence)] == [
        "night-shift nurse",
        "air traffic controller",
    ]
    assert all(n.fills == "role" for n in occupations_in(sentence))
    # "as a", "years" and a comma end the words kept before it
    assert [n.name for n in occupations_in("I work as a teacher, chemistry teacher now")] == [
        "teacher",
        "chemistry teacher",
    ]


def test_a_team_is_read_with_the_words_that_say_which() -> None:
    found = teams_in("I've been at Ocado for 3 years on the fulfilment team, then the SRE team")
    assert [(n.name, n.fills) for n in found] == [
        ("fulfilment team", "team"),
        ("SRE team", "team"),
    ]
    assert teams_in("my team is great and our department is small") == []  # no word says which


def test_a_nationality_before_an_occupation_is_no_part_of_it() -> None:
    found = mentions_in("I am a Filipino nurse working in Riyadh")
    assert [(n.name, n.fills) for n in found] == [
        ("Filipino", None),
        ("nurse", "role"),
        ("Riyadh", None),
    ]


def test_an_occupation_written_with_capitals_is_no_name() -> None:
    found = mentions_in("Store manager at JD Sports Birmingham")
    assert [(n.name, n.fills) for n in found] == [
        ("Store manager", "role"),
        ("JD Sports Birmingham", None),
    ]


def test_the_packaged_reader_belongs_to_the_packaged_model() -> None:
    assert NAMES is not None
    assert NAMES.slots[-1] != "none"  # the last column of the weights is "none"
    assert NAMES.weights.shape[1] == len(NAMES.slots) + 1


@pytest.mark.parametrize(
    ("message", "slot", "name"),
    [
        (
            "grew up in Cork but been in Boston 12 yrs now and i miss proper brown bread",
            "home",
            "Boston",
        ),
        (
            "I work for Bupa in one of their care homes, its just me and Sandra doing it.",
            "works_with",
            "Sandra",
        ),
    ],
)
def test_a_second_fact_of_a_message_is_read_from_its_name(
    message: str, slot: str, name: str
) -> None:
    assert (slot, name) in facts(message)
    assert (slot, name) not in facts(message, WITHOUT_NAMES)


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        (
            "fifteen years as a bus driver in Porto and I still hate the night route, any tips?",
            "role",
            "bus driver",
        ),
        (
            "Sommelier at a small bistro in Lyon here, how do I describe a natural wine?",
            "role",
            "Sommelier",
        ),
        ("I'm a nurse and I use an iPad for my rota", "uses", "iPad"),
        (
            "i work at Grab on the fraud team, whats the best way to learn kotlin",
            "team",
            "fraud team",
        ),
        ("I'm on the night desk at the Daily Nation, how do i fix my sleep", "team", "night desk"),
    ],
)
def test_an_occupation_or_a_product_of_the_users_is_read(
    message: str, slot: str, value: str
) -> None:
    assert (slot, value) in facts(message)
    assert (slot, value) not in facts(message, WITHOUT_NAMES)


@pytest.mark.parametrize(
    "message",
    [
        "we run all our books through Xero and the bank feed keeps breaking, what should I check?",
        "I log everything in Notion and it's getting slow, tips?",
    ],
)
def test_a_product_read_in_a_clause_read_whole_is_its_value(message: str) -> None:
    """The durable reader kept the whole clause as what the user uses; the name is the value."""
    (uses,) = [value for slot, value in facts(message) if slot == "uses"]
    assert len(uses.split()) == 1
    assert any(len(value.split()) > 5 for slot, value in facts(message, WITHOUT_NAMES))


@pytest.mark.parametrize(
    "message",
    [
        "my sister is a paramedic in Leeds and works nights",
        "my wife is on the payments team at Monzo",
        "left the sales team and joined ops last month, i need to learn sql fast",
        "I want to become a pilot one day, how long does training take?",
        "my son is a barber and wants to open a shop",
        "the electrician came round and said the fuse box is ancient",
        "I'm writing a story about a lonely lighthouse keeper, can you help with the opening?",
        "how much does a plumber charge to fix a leaking tap?",
        "I tried Notion for a month and hated it, any simpler apps?",
        "should I switch to Linear from Trello for a team of four?",
        "my mum swears by her Kindle, should I get her a new one?",
        "Is Figma better than Sketch for a beginner?",
    ],
)
def test_an_occupation_or_a_product_that_is_not_the_users_is_not_read(message: str) -> None:
    assert not any(slot in ("role", "uses", "team") for slot, _ in facts(message)), facts(message)


@pytest.mark.parametrize(
    ("message", "slot"),
    [
        ("Just chatted with Dave, originally from Lagos, living in Houston now.", "home"),
        ("My landlord, living in Spain now, never answers.", "home"),
        ("The author, originally from Lagos, living in Houston now, wrote a great book.", "home"),
        ("If I moved, living in Leeds, would I need a car?", "home"),
        ("After the divorce, my ex moved to Leeds, works at Asda now.", "employer"),
        ("Apparently Tom is originally from Lagos, living in Houston now.", "home"),
        ("my brother lives in Oslo and loves it", "home"),
        # a second reviewer's messages: a relative's, a patient's, a place of study, the past
        ("I live in Cork, my wife grew up in Limerick", "origin"),
        # the people close to the user are one list for both guards (session 11's review)
        ("I live in Cork, my grandma grew up in Limerick", "origin"),
        ("I'm in Bristol, my nephew studies at Oxford", "employer"),
        ("I live in Bath, my daughter's dog is called Ziggy", "pet"),
        ("I work at Sky, my flatmate works at the BBC", "office"),
        ("I work with Sandra and Sandra's husband works at Ford", "employer"),
        ("I live in Leicester with my kids, their dad lives in Coventry", "child"),
        ("I'm a vet in Kent. Treated a spaniel called Bella today.", "pet"),
        ("I'm a nanny for a family in Chelsea, the kids are Hugo and Clara", "child"),
        ("I'm a teacher, I did my PGCE at Bath Spa", "employer"),
        ("I'm a developer, interned at IBM years ago", "employer"),
        ("I'm a nurse, hoping to get a job at Great Ormond Street", "employer"),
        ("my cat came from the RSPCA in Leeds", "pet"),
        ("Name: John Smith", "name"),
        ("I'm a web designer and my biggest client is in Berlin.", "works_with"),
        ("I'm a teacher and my school trip is in Paris.", "office"),
        ("I'm a software engineer and I have a season ticket at Anfield in Liverpool.", "employer"),
    ],
)
def test_a_name_in_what_is_said_of_someone_else_is_no_fact_of_the_user(
    message: str, slot: str
) -> None:
    assert not any(found == slot for found, _ in facts(message)), facts(message)


@pytest.mark.parametrize(
    "message",
    [
        # a review's messages (session 11): a job left, never held, played or someone else's
        "I did two years as a cabbie in London",
        "I left my job as a pharmacist last spring",
        "I've never been a nurse, but how hard is the NCLEX?",
        "I spent 6 years as a paramedic before moving into teaching",
        "I quit my job as a bus driver last week",
        "I got sacked from my job as a barista",
        "After 20 years as a firefighter I finally hung up my helmet",
        "I've done nights as a security guard before, never again",
        "I'm no accountant but these numbers look off to me",
        "I'm the daughter of a coal miner",
        "I grew up with a postie for a dad",
        "I'm playing a nurse in the school play",
        "I'm boycotting Amazon",
        "I would use Notion if it worked offline",
        "I have an assessment day at PwC",
        "I'm volunteering at Oxfam on Saturdays",
        # the second review's: a job not started yet, or only looked at
        "I'm starting as a barista at Pret on Monday, what should I wear?",
        "I'll be joining Microsoft as a program manager next month, what's the culture like?",
        "I've just been offered a job as a pharmacist with Boots, how do I negotiate salary?",
        "I looked at a job as a flight attendant with Qatar, what's the lifestyle like?",
        "I'm looking at jobs as a data analyst, which skills matter most?",
    ],
)
def test_a_job_or_a_product_that_is_not_the_users_now_is_not_read(message: str) -> None:
    assert not any(slot in ("role", "uses", "employer") for slot, _ in facts(message)), facts(
        message
    )


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("I edit photos in Lightroom", "uses", "Lightroom"),
        ("I work on the platform team at Zalando, how do we do on-call?", "team", "platform team"),
        ("I edit videos in DaVinci Resolve", "uses", "DaVinci Resolve"),
        ("Working as a quantity surveyor on a hospital job in Leeds", "role", "quantity surveyor"),
        ("Used to work at Deloitte, now freelancing as a UX designer", "role", "UX designer"),
        (
            "As of this week I'm head of customer success at Deel",
            "role",
            "head of customer success",
        ),
    ],
)
def test_a_job_or_a_product_of_the_users_is_read_as_its_name(
    message: str, slot: str, value: str
) -> None:
    assert (slot, value) in facts(message)


def test_what_is_said_of_someone_close_is_no_fact_of_the_users() -> None:
    assert facts("My flatmate Oskar is allergic to shellfish and I'm cooking on Saturday.") == set()
    assert facts("my girlfriend's manager keeps emailing her at midnight") == set()


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        (
            "my boss is in Toronto and I'm in Vancouver, how do we schedule meetings?",
            "home",
            "Vancouver",
        ),
        ("my husband is from Porto and I'm from Lyon", "origin", "Lyon"),
        ("my sister is at Google and I'm at Meta", "employer", "Meta"),
        (
            "my brother is a nurse at Guy's and I'm a teacher at Riverside Primary",
            "employer",
            "Riverside Primary",
        ),
    ],
)
def test_what_the_user_says_of_themselves_after_someone_else_is_read(
    message: str, slot: str, value: str
) -> None:
    """The user speaking of themselves again makes what follows theirs (whether the name reader
    then gives the name that slot is the trained model's to say)."""
    assert value in said_of_the_user(message)


def test_the_users_home_said_after_someone_elses_is_read() -> None:
    found = facts("my boss is in Toronto and I'm in Vancouver, how do we schedule meetings?")
    assert ("home", "Vancouver") in found and ("home", "Toronto") not in found


@pytest.mark.parametrize(
    "message",
    [
        "my boss thinks I'm wasting time on Jira, is he right?",
        "my wife works at Deloitte and I'm at home with the kids",
        "my husband is from Porto and I'm from Lyon",
        "my partner thinks I should quit Spotify",
        "my boss is in Toronto and I'm in Vancouver, how do we schedule meetings?",
    ],
)
def test_a_place_an_organisation_or_a_tool_is_no_one_close(message: str) -> None:
    assert not any(
        slot in ("partner", "manager", "child", "works_with") for slot, _ in facts(message)
    ), facts(message)


@pytest.mark.parametrize(
    "message",
    [
        "my mum thinks I'm still living in Brighton",
        "my neighbour said I'm lucky to live near Hyde Park",
        "my boss told me I should apply to Siemens",
        "my boss asked me if I know anyone at Google",
    ],
)
def test_what_others_say_or_think_of_the_user_is_none_of_their_facts(message: str) -> None:
    assert facts(message) == set(), facts(message)


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("Hi! I'm Oluwaseun, 41, living in Abuja. What should I plant in March?", "home", "Abuja"),
        ("I'm Peruvian, living in Calgary, and the winters are brutal", "home", "Calgary"),
        ("Sri Lankan, nurse, living in Muscat with my two kids", "home", "Muscat"),
    ],
)
def test_the_users_own_name_or_nationality_before_a_clause_is_no_one_else(
    message: str, slot: str, value: str
) -> None:
    """A clause ending on a name makes the next one that person's ("just chatted with Dave,
    living in Houston now"), but not when the name is the user's own or a nationality."""
    assert (slot, value) in facts(message)


def test_a_clause_after_someone_named_stays_theirs() -> None:
    assert ("home", "Houston") not in facts("just chatted with Dave, living in Houston now")


@pytest.mark.parametrize(
    ("sentence", "theirs"),
    [
        ("I'm Peruvian, living in Calgary, and the winters are brutal", "Calgary"),
        ("Hi! I'm Oluwaseun, 41, living in Abuja.", "Abuja"),
        ("Sri Lankan, nurse, living in Muscat with my two kids", "Muscat"),
    ],
)
def test_a_clause_after_the_users_own_name_or_nationality_is_the_users(
    sentence: str, theirs: str
) -> None:
    """The user's own name or nationality ending a clause is no one the next clause describes
    (by the rule for names, "just chatted with Dave, living in Houston" is Dave's)."""
    assert theirs in said_of_the_user(sentence)


@pytest.mark.parametrize(
    ("sentence", "theirs"),
    [
        ("Im a junior doctor at Leeds General, mostly working with Dr. Osei.", "Dr. Osei"),
        ("I'm the office manager at Harper Kline, a law firm in Leeds, and I book it", "Leeds"),
        ("Hi! I'm Kwame Mensah, 34, living in Kumasi.", "Kumasi"),
    ],
)
def test_a_clause_after_a_place_or_an_organisation_of_several_words_is_the_users(
    sentence: str, theirs: str
) -> None:
    """A clause ending on a name of several words after "at", "in" or "I'm" ends on a place, an
    organisation or the user's own name, not on someone the next clause describes."""
    assert theirs in said_of_the_user(sentence)


@pytest.mark.parametrize(
    ("sentence", "theirs"),
    [
        ("I have a 3-year-old, Kofi, who refuses vegetables.", "Kofi"),
        ("We've got three cats and a tortoise, Gerald, who's older than me.", "Gerald"),
        ("I live with my girlfriend Anya in a tiny flat in Bristol.", "Bristol"),
    ],
)
def test_a_name_beside_what_the_user_says_of_themselves_is_theirs(
    sentence: str, theirs: str
) -> None:
    """A name between commas after the user's clause names what it ends on (the clauses leave
    it out), and someone the user lives or works with leaves the clause the user's."""
    assert theirs in said_of_the_user(sentence)


@pytest.mark.parametrize(
    ("sentence", "theirs"),
    [
        ("my main tools are Figma and Miro, I'm a service designer", "Figma"),
        ("My car is a Ford Fiesta.", "Ford Fiesta"),
        ("Our house in Graz still has single glazing.", "Graz"),
    ],
)
def test_a_sentence_opening_on_a_thing_of_the_users_is_theirs(sentence: str, theirs: str) -> None:
    assert theirs in said_of_the_user(sentence)


@pytest.mark.parametrize(
    ("sentence", "theirs"),
    [
        ("my landlord, living in Spain now, wants the rent early", "Spain"),
        ("My new colleague Priya is from Chennai.", "Chennai"),
        ("the author, originally from Lagos, writes about cities", "Lagos"),
        ("I report to Devika Rao, the VP of Engineering", "VP of Engineering"),
    ],
)
def test_a_sentence_opening_on_someone_else_is_theirs(sentence: str, theirs: str) -> None:
    assert theirs not in said_of_the_user(sentence)


@pytest.mark.parametrize(
    ("sentence", "name", "where"),
    [
        ("I'm a baker in Porto.", "Porto", True),
        ("I'm a chef near Valencia, mostly tapas", "Valencia", True),
        ("I'm a baker at Greggs.", "Greggs", False),
        ("I'm a baker from Porto.", "Porto", False),
    ],
)
def test_a_known_town_after_in_is_where_the_user_works(
    sentence: str, name: str, where: bool
) -> None:
    """What the name reader reads as an employer is the office when it is a known town said
    after "in" or "near" ("a chef in Valencia": where, not whom for)."""
    named = next(n for n in names_in(sentence) if n.name == name)
    assert a_town_after_in(named, sentence) is where


@pytest.mark.parametrize(
    ("sentence", "name", "now"),
    [
        ("I'm a shift manager at a Premier Inn near Heathrow", "Premier Inn", True),
        ("me and Priyanka run the night shift at the depot in Crewe", "Crewe", True),
        ("I picked up an extra shift at Tesco yesterday", "Tesco", False),
        ("I studied at Leeds before all this", "Leeds", False),
    ],
)
def test_a_workplace_is_the_users_now_unless_said_of_a_one_off_or_the_past(
    sentence: str, name: str, now: bool
) -> None:
    named = next(n for n in names_in(sentence) if n.name == name)
    assert is_the_users_now("employer", named, sentence) is now


def test_a_team_is_no_known_place() -> None:
    """The durable reader's team is the words that name it, not the town the sentence ends on
    ("on the night crew at a depot in Leeds")."""
    assert values_of("team", "I'm on the night crew at a depot in Leeds") != ("Leeds",)
    assert values_of("team", "I'm in Payments at Monzo") == ("Payments",)


def test_a_home_or_a_job_said_of_the_past_is_none_now() -> None:
    assert said_of_the_past("employer", "I used to work at Nokia")
    assert said_of_the_past("home", "back when I lived in Oslo")
    assert not said_of_the_past("home", "I used to live in Oslo, now in Bergen")
    assert not said_of_the_past("likes", "I used to be into jazz")


@pytest.mark.parametrize(
    ("message", "absent", "present"),
    [
        ("When I lived in Lisbon I surfed every weekend.", ("home", "Lisbon"), None),
        ("I used to live in Glasgow and I miss the chippies.", ("home", "Glasgow"), None),
        ("Name's Ines, I'm a baker in Porto.", ("employer", "Porto"), None),
    ],
)
def test_a_past_home_or_job_is_none_now_and_a_town_after_a_job_is_where_it_is(
    message: str, absent: tuple[str, str], present: tuple[str, str] | None
) -> None:
    found = facts(message)
    assert absent not in found and not any(value.endswith(" I") for _, value in found), found
    if present is not None:
        assert present in found, found


@pytest.mark.parametrize(
    ("message", "role"),
    [
        ("I'm a consultant cardiologist.", "consultant cardiologist"),
        ("I'm the head of finance at a logistics firm called Kestrel Freight.", "head of finance"),
        ("I'm a teacher assistant at a primary school.", "teacher assistant"),
    ],
)
def test_a_role_is_the_whole_occupation_said(message: str, role: str) -> None:
    """The patterns read a role by its first noun; the role kept is the whole occupation the
    sentence names from there, with or without meaning."""
    for extractor in (WITH_NAMES, EmbeddedExtractor(None)):
        roles = {value for slot, value in facts(message, extractor) if slot == "role"}
        assert roles == {role}, roles


@pytest.mark.parametrize(
    ("sentence", "name", "slot", "now"),
    [
        (
            "my wife is a vet at Hampden Vets, working with Dr. Holt",
            "Dr. Holt",
            "works_with",
            False,
        ),
        ("my wife is a vet and I work with Dr. Holt", "Dr. Holt", "works_with", True),
        ("I used to have a hamster, Nibbles, who lived to four", "Nibbles", "pet", False),
        ("I have a hamster, Nibbles, who is four", "Nibbles", "pet", True),
    ],
)
def test_work_said_of_someone_close_and_a_pet_of_the_past_are_not_the_users(
    sentence: str, name: str, slot: str, now: bool
) -> None:
    named = next(n for n in mentions_in(sentence) if n.name == name)
    assert is_the_users_now(slot, named, sentence) is now


def test_an_occupation_said_as_someone_of_the_users_is_no_role_of_theirs() -> None:
    sentence = "my lecturer says: cite everything in Harvard style"
    mentioned = said_of_the_user(sentence)
    assert "lecturer" not in mentioned and "Harvard" not in mentioned  # another's rule
    assert facts(sentence) == set()


@pytest.mark.parametrize(
    ("sentence", "name", "lived_in"),
    [
        ("I live with my husband Rajesh in Leicester.", "Leicester", True),
        ("I'm living in Leeds these days", "Leeds", True),
        ("I live in York and work in Bradford", "Bradford", False),
        ("I'm a nurse in Leicester", "Leicester", False),
    ],
)
def test_a_place_in_a_clause_about_where_the_user_lives_is_their_home(
    sentence: str, name: str, lived_in: bool
) -> None:
    named = next(n for n in names_in(sentence) if n.name == name)
    assert a_place_lived_in(named, sentence) is lived_in


def test_the_products_listed_after_one_read_in_a_clause_are_read_too() -> None:
    found = facts("my main tools at work are Figma, Notion and Linear.")
    assert {("uses", "Figma"), ("uses", "Notion"), ("uses", "Linear")} <= found


def test_a_home_of_the_past_is_none_now() -> None:
    assert said_of_the_past("home", "our old house in Stockport had a lovely garden")
    assert not said_of_the_past("home", "our house in Stockport has a lovely garden")


@pytest.mark.parametrize(
    "message",
    [
        "My therapist says to journal every evening.",
        "my accountant is based in Salford",
        "my lecturer says: cite everything in Harvard style",
    ],
)
def test_what_is_said_of_someone_the_user_has_by_their_work_is_theirs(message: str) -> None:
    assert facts(message) == set()


def test_an_occupation_after_my_is_someone_not_the_users_role() -> None:
    sentence = "I'm now a junior reporter at the Bristol Post, and my news editor is Jess Ward."
    assert "news editor" not in said_of_the_user(sentence)
    assert not any(value == "news editor" for _, value in facts(sentence))


def test_a_word_no_dictionary_holds_is_a_candidate_and_an_english_one_is_not() -> None:
    sentence = "our invoices all go through quickbooks, lol, and the two-person team uses node.js"
    assert [n.name for n in rare_words_in(sentence)] == ["quickbooks", "node.js"]
    # the reader's mentions stay the capitalised names: a rare word is never a cue for them
    assert [n.name for n in mentions_in("I use Xero and quickbooks")] == ["Xero"]
    assert [n.name for n in candidates_in("I use Xero and quickbooks")] == ["Xero", "quickbooks"]


@pytest.mark.parametrize(
    ("message", "product"),
    [
        ("our invoices all go through quickbooks and the rota lives in deputy", "quickbooks"),
        ("the team tracks every bug in linear and we deploy with kubernetes", "kubernetes"),
        ("i sell my prints on etsy and edit them in lightroom", "lightroom"),
    ],
)
def test_a_product_typed_in_lower_case_is_read(message: str, product: str) -> None:
    assert ("uses", product) in facts(message)


@pytest.mark.parametrize(
    "message",
    [
        "lowkey obsessed with my new hoodie and the kettlebell workouts",
        "i wrok at the bakery on tuesdays, its grate",
        "me and farah went to the cinema last night",
    ],
)
def test_an_english_word_a_typo_or_a_name_in_lower_case_is_no_product(message: str) -> None:
    assert not {value for slot, value in facts(message) if slot == "uses"}
    assert not {slot for slot, value in facts(message) if value in ("wrok", "farah", "grate")}


@pytest.mark.parametrize(
    ("message", "employer"),
    [
        ("I sit on the data platform team at Zalvora these days", "Zalvora"),
    ],
)
def test_a_name_first_read_as_the_team_is_read_again_once_the_team_is_named(
    message: str, employer: str
) -> None:
    """The durable reader may take the sentence's name for the team; the team the sentence
    names replaces it, and the name is read for what it is."""
    found = facts(message)
    assert ("employer", employer) in found
    assert ("team", employer) not in found


@pytest.mark.parametrize(
    ("message", "children"),
    [
        (
            "I'm a stay-at-home dad with two kids, Oskari and Venla. Rainy day ideas?",
            {"Oskari", "Venla"},
        ),
        (
            "we're a family of five, me, my husband Tariq and our girls Yasmin and Leila. ideas?",
            {"Yasmin", "Leila"},
        ),
    ],
)
def test_the_users_children_are_read_after_their_partner_or_a_parents_words(
    message: str, children: set[str]
) -> None:
    assert {value for slot, value in facts(message) if slot == "child"} == children


def test_children_of_someone_else_the_user_names_are_not_theirs() -> None:
    found = facts("my friend's kids Tom and Sue love our garden")
    assert not {value for slot, value in found if slot == "child"}


@pytest.mark.parametrize(
    ("sentence", "occupation"),
    [
        ("I'm an aquarist at the Deepwater Aquarium in Plymouth", "aquarist"),
        ("i'm a caseworker at Bridgehouse Refugee Support", "caseworker"),
        ("I'm the only IT person at Holloway & Pryce", "IT person"),
        ("I'm a night shelf stacker at Tesco", "night shelf stacker"),
    ],
)
def test_an_occupation_said_by_its_frame_is_one_whatever_its_words(
    sentence: str, occupation: str
) -> None:
    assert occupation in [o.name for o in occupations_in(sentence)]


@pytest.mark.parametrize(
    "sentence",
    [
        "I'm a bit late for the meeting",
        "I'm a regular at the Crown",
        "I'm the one in charge of snacks",
        "I'm a huge fan of Arsenal",
        "I'm a light sleeper in summer",
        "I'm a diabetic on insulin",
        "I'm the youngest in my team at work",
        "I'm a morning person at heart",
        "I'm a stay at home dad",
    ],
)
def test_a_frame_that_says_no_job_gives_no_occupation(sentence: str) -> None:
    assert occupations_in(sentence) == []


def test_a_job_no_list_holds_is_the_users_role() -> None:
    assert ("role", "aquarist") in facts("I'm an aquarist at the Deepwater Aquarium in Plymouth.")


def test_a_small_town_is_known_by_its_capitals() -> None:
    assert {"Brixham", "Selby", "Oakham"} <= known_towns()
    assert "Brixham" not in known_places().values()  # too small to be capitalised from lower case


def test_tools_named_in_lower_case_are_found_whole_and_only_as_words() -> None:
    sentence = "budget lives in google sheets, notes in excel; excellent Excel skills"
    assert [sentence[start:end] for start, end in tools_in(sentence)] == ["google sheets", "excel"]
    assert "excel" in [named.name for named in candidates_in("i do all our bookkeeping in excel")]


def test_a_tool_in_lower_case_is_the_users_only_when_the_words_around_it_say_so() -> None:
    assert ("uses", "excel") in facts("i do all our bookkeeping in excel")
    assert ("uses", "python") in facts("i'm a data analyst, sql and python all day")
    assert not any(slot == "uses" for slot, _ in facts("how do i make a pivot table in excel"))
    assert not any(slot == "uses" for slot, _ in facts("I excel at chess"))
