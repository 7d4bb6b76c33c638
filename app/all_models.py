"""Every table's module, imported so the metadata Alembic and the drift test compare is whole."""

from app import models
from app.batches import models as batch_models

metadata = models.Base.metadata

__all__ = ["metadata", "models", "batch_models"]
