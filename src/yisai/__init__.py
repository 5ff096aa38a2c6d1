"""yisai (弈赛): run Go competitions by the Chinese Weiqi Association's regulations."""

__version__ = "0.1.0"
