"""Celery's configuration, read from Dossier's settings when Celery first needs it."""

from workers.celery import celery_config

globals().update(celery_config())
