"""The site's pages: home, the payout calculator and the rules page."""

from flask import Blueprint

bp = Blueprint("pages", __name__)
