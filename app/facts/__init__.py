"""End-user facts: what an app's end-users say about themselves, kept as facts and events.

Routes → service → repository, as every domain: `routes.py` (a user's facts, every user's
facts, add, forget, promote, graph, history imports), `service.py` (one service a concern:
extraction, the facts routes, history imports), `repository.py` (all of this room's SQL).
Extraction is pure where it can be: `extraction.py` (what an extractor takes and gives),
`embedded.py` (the embedded extractor) over `utterances.py` (which sentences and clauses may
state a fact), `patterns.py` (the table of patterns, with `ends.py` for what no longer holds,
`people.py` for who the user lives and works with, `self_described.py` for the short ways chat
says who one is; words from `vocabulary.py`, what they find in `found.py`), `dates.py`,
`reconcile.py`, `pasted.py`, `clauses.py`; `durable.py` and `llm_extractor.py` read what the
patterns cannot; `extractors.py` picks one.

Facts know nothing of chat or of blended retrieval (`app.knowledge`, `app.chat` sit above);
they use documents only to promote a fact into a collection, and the switch and cached indexes
of `app.knowledge`'s lower modules (`switch`, `indexes`, `repository`), never its services.
"""
