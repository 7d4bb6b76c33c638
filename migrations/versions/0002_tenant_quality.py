"""tenant quality and temperature

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 15:02:11.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column('tenants', sa.Column('quality', sa.String(length=16), server_default='fast', nullable=False))
    op.add_column('tenants', sa.Column('temperature', sa.Float(), server_default='1', nullable=False))


def downgrade() -> None:
    op.drop_column('tenants', 'temperature')
    op.drop_column('tenants', 'quality')
