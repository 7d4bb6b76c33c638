"""Celery's configuration, read from Dossier's settings when Celery first needs it."""

from app.jobs.celery_app import celery_config

globals().update(celery_config())
