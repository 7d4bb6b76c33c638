"""Background jobs: the Celery app's configuration, the transactional outbox and its relay.

Shared by the API (which only sends) and the workers (which run and send): so it lives in `app/`,
and `workers/` holds only the task functions.
"""
