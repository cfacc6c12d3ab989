// Package childenv is what every child process tribunal starts is given:
// the recursion-guard marker its hooks check, and the arguments and
// environment every git child starts with.
package childenv

// GuardEnv is the recursion-guard marker set in the environment of every
// child process tribunal starts. Every tribunal hook exits at once when it is
// set, because a nested `claude -p` fires the user's hooks again (a Stop hook
// that starts a judge would otherwise start a judge of the judge, and so on).
// It lives here, below the hooks, the model runner and git access (and
// apart from proc, which the hooks do not link), so that the code that
// sets it and the code that checks it share one name.
const GuardEnv = "TRIBUNAL_NESTED"
