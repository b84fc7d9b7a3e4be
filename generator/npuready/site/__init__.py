"""The static workbench site: experiment JSON + docs Markdown → ``site/`` (one HTML page + assets).

Reads only ``experiments/*/result.json`` and ``docs/*.md``; never imports the pipeline and never
recomputes a number. Every number on the page is emitted through :func:`npuready.site.numbers`'s
``num(exp_id, json_pointer)`` helper, which looks the value up in the stored JSON and wraps it in a
drill-down control (``data-exp`` + ``data-path``); a figure without a JSON source fails the build.
"""
