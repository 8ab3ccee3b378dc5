# reports: HTML, Markdown and PNG plots of a run (reports/README.md).
#   make report [RUN=results/<run>]     default: the newest finished run

.PHONY: report

report: deps ## Write RUN/report/ (index.html, report.md, plots); RUN=results/<run>, default the newest
	$(Q)run="$(RUN)"; \
	if [ -z "$$run" ]; then \
		run=$$(ls -1dt results/*/manifest.json results/*/summary.json 2>/dev/null | \
			head -n 1 | xargs -r dirname); \
	fi; \
	if [ -z "$$run" ]; then \
		echo "report: no run in results/; set RUN=results/<run>" >&2; exit 2; \
	fi; \
	./blkscale report "$$run"
