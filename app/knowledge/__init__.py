"""End-user knowledge as a whole: what composes the facts (`app.facts`) and documents
(`app.documents`) rooms, kept thin.

Why a room of its own rather than parts of the other two: blended retrieval ranks a user's
facts and a workspace's passages in one list, so it belongs to neither; the switch turns both
on and off (and deletes both); an end-user's GDPR export and erasure concern the person, not
one table (erasure also takes their batch items and retried answers); beat's sweep covers both
under one lock.

Two layers, so nothing imports in a circle: `models.py`, `repository.py`, `indexes.py`,
`retrieval.py` and `switch.py` use at most the rooms' repositories, and the rooms' services
use them (facts and documents ask the switch and drop cached indexes); `service.py`,
`routes.py` and `sweeps.py` sit above the rooms and compose their services. Chat (`app.chat`)
sits above all of it.
"""
