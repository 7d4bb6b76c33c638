"""ended erasure jobs keep erased end-user ids only hashed

Jobs that ended before an erasure hashed its end-user ids kept them in clear in `scope` and
`targets`; the residue scan now looks for them there, so they are hashed here as new jobs hash
theirs when they end (`sha256:<hex>`).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-30
"""

import hashlib
import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _hashed(user: str) -> str:
    if user.startswith("sha256:"):
        return user
    return "sha256:" + hashlib.sha256(user.encode()).hexdigest()


def upgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.text(
            "SELECT id, scope, targets FROM erasure_jobs WHERE status IN ('completed', 'failed')"
        )
    ).fetchall()
    for job_id, scope, targets in rows:
        scope = json.loads(scope) if isinstance(scope, str) else scope
        targets = json.loads(targets) if isinstance(targets, str) else targets
        if scope and scope.get("users"):
            scope = {**scope, "users": [_hashed(u) for u in scope["users"]]}
        if targets and targets.get("users"):
            targets = {**targets, "users": [[pk, _hashed(u)] for pk, u in targets["users"]]}
        connection.execute(
            sa.text(
                "UPDATE erasure_jobs SET scope = CAST(:scope AS json), "
                "targets = CAST(:targets AS json) WHERE id = :id"
            ),
            {"id": job_id, "scope": json.dumps(scope), "targets": json.dumps(targets)},
        )


def downgrade() -> None:
    pass  # a hash cannot be turned back into the id it hides
