/**
 * Release notes for `changeset version`: @changesets/changelog-github's (each entry links its pull
 * request, commit and author) when GITHUB_TOKEN is set, as it is in the release workflow; otherwise
 * changesets' plain default, because changelog-github asks GitHub's API for those links and refuses
 * to run without a token. So `npx changeset version` works on any clone, offline.
 */
import github from '@changesets/changelog-github';
import plain from '@changesets/cli/changelog';

let warned = false;
function pick() {
  if (process.env.GITHUB_TOKEN) return github;
  if (!warned) {
    warned = true;
    console.warn('GITHUB_TOKEN is not set: release notes without links to GitHub pull requests and authors.');
  }
  return plain;
}

export default {
  getReleaseLine: (...args) => pick().getReleaseLine(...args),
  getDependencyReleaseLine: (...args) => pick().getDependencyReleaseLine(...args),
};
