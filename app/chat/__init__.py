"""`POST /v1/chat/completions`: OpenAI-compatible chat with knowledge. Before the answer,
blended retrieval (`app.knowledge.service.RetrievalService`); the answer from the upstream
model (`upstream.py`) or, with none configured, the embedded extractive answerer
(`answerer.py`); after it, the user's new turns queued for extraction (`app.facts`).

The top of the stack: chat imports knowledge and facts, nothing imports chat but the app, the
batch runner (a batch's chat items) and the LLM extractor (which talks to the same upstream
through `upstream.py`). There is no repository: chat keeps no rows of its own.
"""
