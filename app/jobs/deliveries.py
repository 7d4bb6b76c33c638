"""How many times the broker has handed out one attempt of a task: a task whose worker dies while
running it (a crash, an out-of-memory kill) is delivered again, and one that kills every worker
would be delivered for ever. Counted in Redis per task id and retry number, for a day."""

from __future__ import annotations

import logging

import redis

from app.cache import get_redis

log = logging.getLogger(__name__)

MAX_DELIVERIES = 5
"""A worker stopped by hand (a deploy, Ctrl-C) hands its task back too: a few of those are fine."""
TTL_SECONDS = 86_400


def count_delivery(task_id: str, retries: int) -> int:
    """This delivery's number (1 for the first); 0 when Redis cannot count it (then it runs)."""
    key = f"dossier:deliveries:{task_id}:{retries}"
    try:
        client = get_redis()
        pipe = client.pipeline()
        pipe.incr(key)
        pipe.expire(key, TTL_SECONDS)
        number, _ = pipe.execute()
    except redis.RedisError as exc:
        log.warning("could not count the deliveries of task %s: %s", task_id, exc)
        return 0
    return int(number)
