"""What one erasure job erases, resolved once (`app.erasure.repository.resolve`)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field, TypeAdapter


@dataclass(frozen=True)
class Targets:
    """What one job erases: resolved once, kept in the job, so a resumed job erases the same."""

    tenant_id: Annotated[uuid.UUID, Field(exclude=True)]
    """The job's own column; not stored with the targets."""
    whole: bool
    subjects: list[tuple[int, str]]
    users: list[tuple[int, str]]

    def to_json(self) -> dict[str, Any]:
        """`{"whole", "subjects": [[pk, name], …], "users": […]}`, as the job stores it."""
        stored: dict[str, Any] = _TARGETS.dump_python(self, mode="json")
        return stored

    @classmethod
    def from_json(cls, tenant_id: uuid.UUID, data: dict[str, Any]) -> Targets:
        return _TARGETS.validate_python({**data, "tenant_id": tenant_id})

    @property
    def subject_pks(self) -> list[int]:
        return [pk for pk, _ in self.subjects]

    @property
    def subject_names(self) -> list[str]:
        return [name for _, name in self.subjects]

    @property
    def user_names(self) -> list[str]:
        return [name for _, name in self.users]

    @property
    def user_pks(self) -> list[int]:
        return [pk for pk, _ in self.users]


_TARGETS = TypeAdapter(Targets)
