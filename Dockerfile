FROM python:3.11-slim
WORKDIR /srv/dossier
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY workers ./workers
COPY migrations ./migrations
RUN pip install --no-cache-dir -e .
EXPOSE 8000
CMD ["dossier", "serve", "--host", "0.0.0.0", "--port", "8000"]
