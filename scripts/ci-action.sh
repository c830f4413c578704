#!/usr/bin/env bash
# The one script of the CI action (action.yml): `fitconform run` with the action's inputs, the Markdown
# job summary, and the exit code as a step output. Also usable from any CI (README § CI): the inputs are
# environment variables.
#
#   FITCONFORM_BASE_URL, FITCONFORM_TOKEN, FITCONFORM_OTHER_TOKEN, ...  read by fitconform itself
#   INPUT_REPORTERS        --reporter list (default console,json,junit,html,markdown)
#   INPUT_OUTPUT_DIR       --output-dir (default reports)
#   INPUT_EXPECT_FAILURES  --expect-failures FILE when set
#   INPUT_FAIL_ON_SKIP     true → --fail-on-skip
#   INPUT_STRICT           true → --strict
#   INPUT_PATHS            scenario files or folders, space-separated
#   GITHUB_STEP_SUMMARY    the Markdown summary is appended here when set
#   GITHUB_OUTPUT          exit-code= and report-dir= are appended here when set
#
# Runs in the current directory (the workspace); fitconform is this script's own package.
set -uo pipefail

package_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ ! -f "$package_dir/dist/src/cli/main.js" ]]; then
  echo "fitconform: installing and building in $package_dir (npm ci)"
  (cd "$package_dir" && npm ci --no-audit --no-fund) || exit 2
fi

# Empty inputs mean "not given": unset them so fitconform applies its own defaults.
for name in FITCONFORM_BASE_URL FITCONFORM_TOKEN FITCONFORM_OTHER_TOKEN FITCONFORM_REVOKED_TOKEN FITCONFORM_REVOKED_DELETE_TOKEN FITCONFORM_LIMITED_TOKEN; do
  [[ -z "${!name:-}" ]] && unset "$name"
done

reporters="${INPUT_REPORTERS:-console,json,junit,html,markdown}"
if [[ -n "${GITHUB_STEP_SUMMARY:-}" && ",$reporters," != *",markdown"[,:]* ]]; then
  reporters="$reporters,markdown"
fi
output_dir="${INPUT_OUTPUT_DIR:-reports}"

args=(run)
if [[ -n "${INPUT_PATHS:-}" ]]; then
  read -r -a paths <<<"$INPUT_PATHS"
  args+=("${paths[@]}")
fi
args+=(--reporter "$reporters" --output-dir "$output_dir")
[[ -n "${INPUT_EXPECT_FAILURES:-}" ]] && args+=(--expect-failures "$INPUT_EXPECT_FAILURES")
[[ "${INPUT_FAIL_ON_SKIP:-false}" == "true" ]] && args+=(--fail-on-skip)
[[ "${INPUT_STRICT:-false}" == "true" ]] && args+=(--strict)

# What `npx fitconform run` runs, from this package whatever the workspace has installed. Its stderr
# is kept too (tokens are redacted there already), so an early stop can say why in the summary.
err_file="$(mktemp)"
trap 'rm -f "$err_file"' EXIT
{ node "$package_dir/bin/fitconform.js" "${args[@]}" 2>&1 1>&3 | tee "$err_file" >&2; } 3>&1
code=${PIPESTATUS[0]}

if [[ -n "${GITHUB_STEP_SUMMARY:-}" && ( $code -eq 2 || $code -eq 3 ) ]]; then
  # No scenario ran and fitconform removed the earlier reports: the summary says why, in fitconform's words.
  reason=$([[ $code -eq 2 ]] && echo "a usage, config or scenario-file error: nothing was sent" || echo "the preflight stopped the run before any scenario: the server could not be reached, refused a token, or did not answer GET /user")
  {
    printf '### fitconform: exit %s, no scenario ran\n\n%s.\n\n```text\n' "$code" "$reason"
    sed -e 's/\x1b\[[0-9;]*m//g' "$err_file" | grep -v '^Removed the previous run' | head -n 20
    printf '```\n'
  } >>"$GITHUB_STEP_SUMMARY"
fi
if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
  printf 'exit-code=%s\nreport-dir=%s\n' "$code" "$output_dir" >>"$GITHUB_OUTPUT"
fi
exit "$code"
