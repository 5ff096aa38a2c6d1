"""The web platform: public site, director's console, team leaders' registration, JSON API."""
