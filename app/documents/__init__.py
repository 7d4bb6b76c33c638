"""Collections of documents: create, rename, delete; add pasted text or uploaded files; read
them in the background (the ingest queue) into the chunks retrieval ranks; meter what they
hold.

Routes → service → repository, as every domain; `parsing.py` is pure (file types, text out of
PDFs, chunks, slugs). Documents import nothing of facts or chat; they use the switch's table
and the cached indexes of `app.knowledge`'s lower modules (`repository`, `indexes`), never its
services.
"""
