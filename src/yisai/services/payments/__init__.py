"""Fees paid online: the provider seam (``base``), the configured providers (``registry``), the
flows (``flow``: orders, callbacks, settling, refunds) and one module per provider (``wechat``)."""
