"""The static workbench site: experiment JSON + docs Markdown → ``site/`` (one HTML page that loads
its tabs and results as scripts when needed, + assets).

Reads only ``experiments/*/result.json`` and ``docs/*.md``; never imports the pipeline and never
recomputes a number. Every number on the page is emitted through :func:`npuready.site.numbers`'s
``num(exp_id, json_pointer)`` helper, which looks the value up in the stored JSON and wraps it in a
drill-down control (one ``data-n`` reference, resolved through the page file's pointer table); a figure without
a JSON source fails the build.
"""
