"""HTTP/WebSocket server for every registered environment (needs fastapi; the client does not)."""

from .app import create_app
from .config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
