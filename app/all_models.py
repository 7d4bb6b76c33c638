"""Every table's module, imported so the metadata Alembic and the drift test compare is whole."""

from app import models
from app.account import models as account_models
from app.batches import models as batch_models
from app.documents import models as document_models
from app.erasure import models as erasure_models
from app.exports import models as export_models
from app.facts import models as fact_models
from app.files import models as file_models
from app.idempotency import models as idempotency_models
from app.jobs import models as job_models
from app.knowledge import models as knowledge_models
from app.learning import models as learning_models

metadata = models.Base.metadata

__all__ = [
    "metadata",
    "models",
    "account_models",
    "batch_models",
    "erasure_models",
    "export_models",
    "file_models",
    "idempotency_models",
    "job_models",
    "learning_models",
    "knowledge_models",
    "fact_models",
    "document_models",
]
