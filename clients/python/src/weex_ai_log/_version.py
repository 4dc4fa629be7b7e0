"""The package version (read as text by the build backend, _build/weex_ai_log_backend.py, too)."""

__version__ = "0.1.0"
