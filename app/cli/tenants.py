"""`dossier tenants create`, `dossier keys new` and `dossier keys revoke`."""

from __future__ import annotations

import argparse
import uuid

from app.cli.services import services
from app.settings import load_settings_or_exit


def run_tenants_create(args: argparse.Namespace) -> None:
    from app.db import session_scope
    from app.tenants.service import create_tenant

    settings = load_settings_or_exit()
    with services(settings) as live, session_scope() as (session, _):
        credit = args.credit if args.credit is not None else live.initial_credit
        tenant, key = create_tenant(session, args.name, credit)
        tenant_id = tenant.id
    print(f"tenant_id: {tenant_id}\napi_key:   {key.api_key}")


def run_keys_new(args: argparse.Namespace) -> None:
    from app.db import session_scope
    from app.tenants.service import issue_key

    with services(load_settings_or_exit()), session_scope() as (session, _):
        key = issue_key(session, uuid.UUID(args.tenant_id))
    print(f"key_id:  {key.key_id}\napi_key: {key.api_key}")


def run_keys_revoke(args: argparse.Namespace) -> None:
    from app.db import session_scope
    from app.tenants.service import revoke_key

    with services(load_settings_or_exit()), session_scope() as (session, _):
        revoke_key(session, uuid.UUID(args.tenant_id), uuid.UUID(args.key_id))
    print("revoked")
