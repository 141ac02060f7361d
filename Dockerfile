# SupportGym server: every environment over HTTP + WebSocket on port 7860 (Hugging Face Spaces' port).
#   docker build -t supportgym . && docker run -p 7860:7860 supportgym
FROM python:3.11-slim

# the uv that wrote uv.lock, so --frozen reads it
COPY --from=ghcr.io/astral-sh/uv:0.13.9 /uv /bin/uv

ENV UV_COMPILE_BYTECODE=1 UV_LINK_MODE=copy UV_PYTHON_DOWNLOADS=never PYTHONUNBUFFERED=1 \
    HF_HUB_OFFLINE=1 PATH="/app/.venv/bin:$PATH"
WORKDIR /app

# pyproject lists /opt/wheels as a local wheel source (only torch comes from it, not installed here)
RUN mkdir -p /opt/wheels && useradd --create-home --uid 1000 user

# dependencies first, so code edits do not re-download them
COPY pyproject.toml uv.lock README.md ./
RUN uv sync --frozen --no-dev --extra server --no-install-project
COPY supportgym ./supportgym
RUN uv sync --frozen --no-dev --extra server

USER user
EXPOSE 7860
HEALTHCHECK --interval=30s --timeout=5s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:7860/health', timeout=4)"
CMD ["supportgym", "serve", "--host", "0.0.0.0", "--port", "7860"]
