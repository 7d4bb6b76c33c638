"""Every task's name, in one place: senders enqueue by these and workers register under them.

A name is a stable dotted string (`dossier.<queue>.<task>`, the queue picked by
`app.queues.TASK_ROUTES`): jobs already waiting in the outbox or the broker carry it, so a name
never changes once released. Nothing here imports Celery; the API only names what it sends.
`tests/unit/test_task_names.py` keeps this the only place a task name is written, and every name
here a registered task.
"""

from __future__ import annotations

from typing import Final

# Batches of decisions (queue "decisions"): check the items, decide a chunk, close the batch.
VALIDATE_BATCH: Final = "dossier.decisions.validate_batch"
RUN_CHUNK: Final = "dossier.decisions.run_chunk"
FINISH_BATCH: Final = "dossier.decisions.finish_batch"

# A decision's compare / explain / placebo passes asked for with "passes": "async".
RUN_PASSES: Final = "dossier.passes.run"

# End-user facts and learned memory (queue "extraction").
EXTRACT_BATCH: Final = "dossier.extraction.run_batch"
REEXTRACT_BATCH: Final = "dossier.extraction.rerun_batch"
IMPORT_HISTORY: Final = "dossier.extraction.import_history"
LEARN: Final = "dossier.extraction.learn"

# Documents (queue "ingest").
INGEST_DOCUMENT: Final = "dossier.ingest.document"

# Erasure and exports.
RUN_ERASURE: Final = "dossier.erasure.run"
ERASE_USER_CACHES: Final = "dossier.erasure.user_caches"
RUN_EXPORT: Final = "dossier.exports.run"

# Vectors of rows written before a model change.
REEMBED: Final = "dossier.embeddings.refresh"

# Beat's sweeps (queue "scheduled").
EXPIRE_BATCHES: Final = "dossier.scheduled.expire_batches"
KNOWLEDGE_SWEEP: Final = "dossier.scheduled.knowledge_sweep"
REEXTRACT_SWEEP: Final = "dossier.scheduled.reextract"
EMBEDDINGS_SWEEP: Final = "dossier.scheduled.embeddings"
RETENTION_SWEEP: Final = "dossier.scheduled.retention_sweep"
EXPORT_SWEEP: Final = "dossier.scheduled.export_sweep"
IDEMPOTENCY_SWEEP: Final = "dossier.scheduled.idempotency_sweep"
ACCOUNT_DELETIONS: Final = "dossier.scheduled.account_deletions"

ALL: Final = frozenset(
    value for name, value in dict(globals()).items() if name.isupper() and name != "ALL"
)
"""Every name above."""
