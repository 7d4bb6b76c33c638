"""Dossier's MCP server: the tools an agent uses to read and change a tenant's memory.

Each tool calls the service its HTTP route calls, in a unit of work of its own (`calls`), so a
tool call is billed, audited and committed exactly like the request it mirrors. The tenant comes
from the caller's API key: over HTTP the key check in front of `/mcp` (`auth`), over stdio the
key `dossier mcp` was started with.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Callable
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from app.cache import get_subject_cache
from app.db import UnitOfWork
from app.decisions.recall import SubjectRecall
from app.documents.schemas import Slug
from app.embeddings import current_embedder
from app.errors import Conflict
from app.facts.schemas import UserId
from app.facts.service import FactService
from app.forget.schemas import ForgetIn, ForgetOut
from app.forget.service import ForgetService
from app.knowledge.indexes import knowledge_indexes
from app.knowledge.schemas import SearchIn
from app.knowledge.service import RetrievalService
from app.mcp.calls import refuse_unknown, run_in_unit, tool_errors
from app.memory.schemas import RememberIn, SubjectId
from app.memory.service import MemoryService
from app.recall.cache import shared_indexes
from app.settings import get_settings
from app.tenants.service import CurrentTenant

TenantOf = Callable[[Context], CurrentTenant]
"""How a tool call finds its tenant: from the HTTP request, or the stdio server's key."""

INSTRUCTIONS = """\
Dossier holds two kinds of memory for this workspace.
Subject memory: plain-text lines about a subject (a customer, an account, a project), read
before decisions about it. Use recall_memory before acting on a subject, remember to keep
something worth knowing next time, forget_concept to remove what must go.
End-user knowledge: facts learned about each end-user of the workspace's app, and documents
in collections. Use search_knowledge to ground an answer, list_facts and forget_fact to show
or remove what is known about one end-user."""

Subject = Annotated[
    SubjectId,
    Field(description="the subject's id: letters, digits, _ and -, 1-36 characters"),
]
User = Annotated[UserId, Field(description="the end-user's id in the workspace's app")]


def build_server(tenant_of: TenantOf) -> MCPServer:
    server = MCPServer(
        "dossier", title="Dossier", instructions=INSTRUCTIONS, version="0.1.0", log_level="WARNING"
    )
    tools = _Tools(tenant_of)
    read_only = ToolAnnotations(readOnlyHint=True, openWorldHint=False)
    for tool, hints in (
        (tools.search_knowledge, read_only),
        (tools.recall_memory, read_only),
        (tools.remember, ToolAnnotations(readOnlyHint=False, openWorldHint=False)),
        (tools.forget_concept, ToolAnnotations(destructiveHint=True, openWorldHint=False)),
        (tools.list_facts, read_only),
        (tools.forget_fact, ToolAnnotations(destructiveHint=True, openWorldHint=False)),
    ):
        server.add_tool(
            tool,
            description=inspect.cleandoc(tool.__doc__ or ""),
            annotations=hints,
            structured_output=True,
        )
    return server


class _Tools:
    """The tools, bound to how they find their tenant. Docstrings are the descriptions the
    model reads: when to call, what the arguments mean, what comes back."""

    def __init__(self, tenant_of: TenantOf) -> None:
        self._tenant_of = tenant_of

    def search_knowledge(
        self,
        ctx: Context,
        query: Annotated[str, Field(min_length=1, description="what to look for, in words")],
        user: Annotated[
            UserId | None,
            Field(description="the end-user asking: their own facts are searched too"),
        ] = None,
        collection: Annotated[
            Slug | list[Slug] | None,
            Field(
                description="a collection slug, or a list of them: read only these (plus the "
                "user's own facts), not the rest of the workspace. Leave out to search "
                "everything. A slug the workspace does not have is an error, never ignored."
            ),
        ] = None,
        top_k: Annotated[int, Field(ge=1, le=20, description="most results to return")] = 8,
    ) -> dict[str, Any]:
        """Search the workspace's knowledge: the end-user's facts (with `user`) and passages of
        the documents in its collections, ranked by relevance. Call it before answering a
        question that the workspace's documents or what is known about the user could answer.
        Returns `data` (each hit with its text, kind, score and source), `sources` (what
        grounded the hits, by document or collection) and `searched` (false when knowledge is
        off for the workspace, or there was nothing to search)."""
        tenant = self._start(ctx)

        def work(unit: UnitOfWork) -> BaseModel:
            body = SearchIn(query=query, user=user, collection=collection, top_k=top_k)
            return _retrieval(unit).search(tenant, body)

        return run_in_unit(work)

    def recall_memory(
        self,
        ctx: Context,
        subject: Subject,
        text: Annotated[
            str,
            Field(
                min_length=1,
                max_length=100_000,
                description="the situation to recall for: the ticket, message or question at "
                "hand, as you would send it to a decision",
            ),
        ],
        top_k: Annotated[int, Field(ge=1, le=20, description="most recalled lines")] = 6,
    ) -> dict[str, Any]:
        """Recall what the subject's memory holds that bears on a text: the lines a decision
        about this text would be given, in that order. Call it before deciding or answering
        something about the subject. Returns `lines`, each with `kind` (pinned or rule: the
        subject's rules, which always apply; computed: a fact a rule derived; recalled: a line
        found for this text, with its `score` and its `lexical` and `semantic` parts) and
        `warnings`. A subject that was never written to is an error."""
        tenant = self._start(ctx)

        def work(unit: UnitOfWork) -> BaseModel:
            recall = SubjectRecall(_memory(unit), shared_indexes(), current_embedder())
            return recall.recall_for_text(tenant, subject, text, top_k=top_k)

        return run_in_unit(work)

    def remember(
        self,
        ctx: Context,
        subject: Subject,
        text: Annotated[
            str,
            Field(
                min_length=1,
                description="one fact per line; each line is stored as written and recalled "
                "on its own, so make each line stand alone (name who or what it is about)",
            ),
        ],
    ) -> dict[str, Any]:
        """Store lines in the subject's memory, one per line of `text`; the subject is made if
        it is new. Use it for what should shape later decisions about the subject: a
        preference, a contract term, what happened last time. Billed per line. Returns the
        lines `stored`, the subject's `line_count`, and `warnings` for lines that read like a
        rule (always/never/if ...), which recall can miss; state those as plain facts."""
        tenant = self._start(ctx)
        return run_in_unit(
            lambda unit: _memory(unit).remember(tenant, RememberIn(subject=subject, text=text))
        )

    def forget_concept(
        self,
        ctx: Context,
        subject: Subject,
        concept: Annotated[
            str,
            Field(
                min_length=1,
                max_length=2_000,
                description="what to forget: a name, a fact, a topic; every line and rule "
                "holding all of its content words goes",
            ),
        ],
        confirmation: Annotated[
            str | None,
            Field(
                description="leave out to preview. To delete, the `confirmation` the preview "
                "of this same subject and concept returned"
            ),
        ] = None,
    ) -> dict[str, Any]:
        """Remove a concept from the subject's memory, in two steps. First call without
        `confirmation`: nothing is removed; the answer lists `removed_lines` and
        `removed_rules` (what would go), `related` and `matched_unsure` (what stays and may
        need a look) and a `confirmation`. Show that to the user if they asked; then call again
        with the same subject, concept and that `confirmation` to delete. The deletion is for
        good and is verified (`verified_forgotten`, `leaks`). If the memory changed in between,
        the confirmation no longer holds: preview again."""
        tenant = self._start(ctx)

        def work(unit: UnitOfWork) -> ForgetOut:
            service = ForgetService(_memory(unit))
            asked = ForgetIn(subject=subject, concept=concept, preview=True)
            preview = service.forget(tenant, asked)
            token = _confirmation(tenant, concept, preview)
            if confirmation is None:
                return _Preview(**preview.model_dump(), confirmation=token)
            # Both plans are made under the subject's row lock, in this one transaction: what
            # goes now is exactly what the preview showed.
            if confirmation != token:
                raise Conflict(
                    "this confirmation does not match what would be removed now (the memory "
                    "changed, or it is another subject's or concept's): preview again",
                    field="confirmation",
                    code="confirmation_stale",
                )
            return service.forget(tenant, ForgetIn(subject=subject, concept=concept))

        return run_in_unit(work)

    def list_facts(
        self,
        ctx: Context,
        user: User,
        query: Annotated[
            str | None, Field(max_length=200, description="only facts whose text holds this")
        ] = None,
        status: Annotated[
            Literal["active", "retired", "all"],
            Field(description="active: true now; retired: no longer true; all: both"),
        ] = "all",
        limit: Annotated[int, Field(ge=1, le=500, description="facts per page")] = 100,
        cursor: Annotated[
            str | None, Field(description="`next_cursor` of the previous page, for the next")
        ] = None,
    ) -> dict[str, Any]:
        """List the facts known about one end-user, newest first: each with its `id`, `text`,
        `kind` (fact, or event with the day it happened), `status` and dates. Call it when the
        user asks what is known about them, or to find the id of a fact to forget.
        `next_cursor` is set when there are more."""
        tenant = self._start(ctx)
        return run_in_unit(
            lambda unit: _facts(unit).list_facts(
                tenant, user, text=query, status=status, sort="newest", cursor=cursor, limit=limit
            )
        )

    def forget_fact(
        self,
        ctx: Context,
        user: User,
        fact_id: Annotated[int, Field(description="the fact's `id`, from list_facts")],
    ) -> dict[str, Any]:
        """Forget one fact about an end-user: deleted outright, not retired, and nothing brings
        it back; it leaves retrieval, the graph and every export. Use it when the user asks
        for something about them to be removed. There is no preview: find the fact with
        list_facts and be sure it is the one. Returns the `deleted` fact's id."""
        tenant = self._start(ctx)
        return run_in_unit(lambda unit: _facts(unit).delete_fact(tenant, user, fact_id))

    def _start(self, ctx: Context) -> CurrentTenant:
        """The call's tenant, once its arguments are all ones the tool takes."""
        params = ctx.request_context.params or {}
        name = str(params.get("name", ""))
        refuse_unknown(params.get("arguments") or {}, _ARGUMENTS.get(name, ()))
        with tool_errors():
            return self._tenant_of(ctx)


class _Preview(ForgetOut):
    confirmation: str


def _confirmation(tenant: CurrentTenant, concept: str, preview: ForgetOut) -> str:
    """Names what a confirmed forget would remove: it matches only while that stays the same."""
    planned = [
        str(tenant.id),
        preview.subject,
        concept,
        preview.removed_lines,
        [rule.id for rule in preview.removed_rules],
    ]
    return hashlib.sha256(json.dumps(planned).encode()).hexdigest()[:16]


def _arguments(method: Callable[..., Any]) -> tuple[str, ...]:
    names = inspect.signature(method).parameters
    return tuple(name for name in names if name not in ("self", "ctx"))


_ARGUMENTS = {
    name: _arguments(method)
    for name, method in vars(_Tools).items()
    if not name.startswith("_") and callable(method)
}


def _memory(unit: UnitOfWork) -> MemoryService:
    return MemoryService(unit.session, unit.jobs, get_subject_cache(), get_settings())


def _retrieval(unit: UnitOfWork) -> RetrievalService:
    return RetrievalService(unit.session, get_settings(), knowledge_indexes())


def _facts(unit: UnitOfWork) -> FactService:
    return FactService(unit.session, unit.jobs, get_settings(), knowledge_indexes())
