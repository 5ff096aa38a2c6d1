"""Reaching players outside the site: the SMS senders behind ``yisai.qualifier.notices.Sender``
(the developer outbox, Tencent Cloud SMS, Alibaba Cloud SMS through their official SDKs) and
the site's SMS configuration, read once at the entry point (credentials from the environment or
a file, never from or into the database, never logged).

An outer layer like ``store``: it does network I/O. The services never import it; the entry
points (``yisai serve``, ``yisai notices work``) build a sender here and hand it to the queue's
worker in ``yisai.services.notices``.
"""
