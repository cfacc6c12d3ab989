package mutate

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// sourceExts are the files whose added lines the line rules edit: code in
// a language whose conditions and comparisons they read. Markdown, shell,
// YAML and the like are left alone (a "<" there is rarely a bound).
var sourceExts = map[string]bool{
	".go": true, ".py": true, ".js": true, ".jsx": true, ".mjs": true, ".cjs": true, ".ts": true, ".tsx": true,
	".java": true, ".kt": true, ".scala": true, ".c": true, ".h": true, ".cc": true, ".cpp": true, ".hpp": true,
	".cs": true, ".rs": true, ".swift": true, ".php": true,
}

// braceLangs write a condition without parentheses before a "{".
var braceLangs = map[string]bool{".go": true, ".rs": true, ".swift": true}

// condKeywords open a condition, longest first.
var condKeywords = []string{"} else if", "else if", "elif", "while", "if"}

// invertCondition negates the condition of a line that opens with if,
// else if, elif or while: `if not (C):` in Python (the line ends in ":"),
// `if !(C) {` in Go, Rust and Swift (the line ends in "{"; a Go init
// statement before the last "; " is kept; an `if let` is left alone),
// `if (!(C))` elsewhere (the
// condition is the parenthesised group after the keyword).
func invertCondition(code, p string) (string, bool) {
	ext := path.Ext(p)
	if !sourceExts[ext] {
		return "", false
	}
	body := strings.TrimLeft(code, " \t")
	indent := code[:len(code)-len(body)]
	for _, kw := range condKeywords {
		rest, ok := strings.CutPrefix(body, kw)
		if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '(') {
			continue
		}
		trimmed := strings.TrimRight(rest, " \t")
		switch {
		case ext == ".py":
			cond, ok := strings.CutSuffix(trimmed, ":")
			if !ok || strings.TrimSpace(cond) == "" {
				return "", false
			}
			return indent + kw + " not (" + strings.TrimSpace(cond) + "):", true
		case braceLangs[ext]:
			cond, ok := strings.CutSuffix(trimmed, "{")
			cond = strings.TrimSpace(cond)
			// Rust's and Swift's `if let` binds a pattern: it has no
			// condition to negate.
			if !ok || cond == "" || strings.HasPrefix(cond, "let ") {
				return "", false
			}
			init := ""
			if i := strings.LastIndex(cond, "; "); ext == ".go" && i >= 0 {
				init, cond = cond[:i+2], cond[i+2:]
			}
			return indent + kw + " " + init + "!(" + cond + ") {", true
		default:
			open := strings.IndexByte(rest, '(')
			if open < 0 || strings.TrimSpace(rest[:open]) != "" {
				return "", false
			}
			end := closing(rest, open)
			if end < 0 {
				return "", false
			}
			return indent + kw + rest[:open] + "(!(" + rest[open+1:end] + "))" + rest[end+1:], true
		}
	}
	return "", false
}

// closing is the index of the ")" that closes s[open], or -1.
func closing(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// comparison finds a comparison operator with a space on each side, so
// that <-, ->, <<, =>, generics and HTML are not taken for one.
var comparison = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` (<=|>=|<|>) `) })

// shiftBound moves the first spaced comparison of the line outside a
// double-quoted string by one: < becomes <=, <= becomes <, > becomes >=,
// >= becomes >.
func shiftBound(code, p string) (string, bool) {
	if !sourceExts[path.Ext(p)] {
		return "", false
	}
	for _, m := range comparison().FindAllStringSubmatchIndex(code, -1) {
		if strings.Count(code[:m[0]], `"`)%2 == 1 {
			continue
		}
		op := code[m[2]:m[3]]
		swapped := map[string]string{"<": "<=", "<=": "<", ">": ">=", ">=": ">"}[op]
		return code[:m[2]] + swapped + code[m[3]:], true
	}
	return "", false
}
