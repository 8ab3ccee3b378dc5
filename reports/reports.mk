# reports: HTML, Markdown and PNG plots of a run (reports/README.md).
#   make report [RUN=results/<run>]     default: the newest finished run
#   make history                        the nightly's nights side by side

.PHONY: report history

HISTORY ?= results/nightly-history.jsonl
# The blktests nights the nightly kept, for the tests flaky on several.
BLKTESTS_NIGHTS ?= $(patsubst %/summary.json,%,$(wildcard results/blktests-nightly/*/summary.json))

history: deps ## Draw the nightly's nights side by side from HISTORY (default results/nightly-history.jsonl): each gated figure across nights with its interval, the night and commit its verdict changed, the blktests tests flaky on more than one night (results/blktests-nightly/); into results/nightly-history-report/
	$(Q)./blkscale report --history "$(HISTORY)" \
		$(foreach d,$(BLKTESTS_NIGHTS),--blktests-night $(d))

report: deps ## Write RUN/report/ (index.html led by the summary table, report.md, plots, summary.csv and summary.json); RUN=results/<run>, default the newest
	$(Q)run="$(RUN)"; \
	if [ -z "$$run" ]; then \
		run=$$(ls -1dt results/*/manifest.json results/*/summary.json 2>/dev/null | \
			head -n 1 | xargs -r dirname); \
	fi; \
	if [ -z "$$run" ]; then \
		echo "report: no run in results/; set RUN=results/<run>" >&2; exit 2; \
	fi; \
	./blkscale report "$$run"
