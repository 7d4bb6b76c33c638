"""Idempotent writes: a retried request with the same `Idempotency-Key` gets the first answer."""
