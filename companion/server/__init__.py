"""The web layer: one Flask application factory, small blueprints, served by waitress."""

from companion.server.app import create_app

__all__ = ["create_app"]
