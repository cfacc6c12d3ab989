package ghaction

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// Thread is one review thread as GraphQL names it: its node id, whether
// it is resolved, and the database id of its first comment (what the
// REST API calls the comment's id).
type Thread struct {
	ID         string
	Resolved   bool
	FirstID    int64
	FirstLogin string
}

// graphQLPath is the GraphQL endpoint's URL beside the REST one: GitHub's
// is api.github.com/graphql, Enterprise Server's /api/graphql beside
// /api/v3 (GITHUB_GRAPHQL_URL says the same).
func (c Client) graphQLPath() string {
	api := strings.TrimRight(c.APIURL, "/")
	if base, ok := strings.CutSuffix(api, "/api/v3"); ok {
		return base + "/api/graphql"
	}
	return api + "/graphql"
}

// graphQL posts one query; GraphQL reports errors in a 200 answer, which
// are returned as an error too.
func (c Client) graphQL(ctx context.Context, query string, vars map[string]any, out any) error {
	var answer struct {
		Data   any `json:"data"`
		Errors []struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	answer.Data = out
	if err := c.call(ctx, http.MethodPost, c.graphQLPath(), map[string]any{"query": query, "variables": vars}, &answer); err != nil {
		return err
	}
	if len(answer.Errors) > 0 {
		e := answer.Errors[0]
		return &APIError{Method: "POST", URL: "graphql", Status: graphQLStatus(e.Type), Message: e.Type + ": " + e.Message}
	}
	return nil
}

// graphQLStatus maps GraphQL's error types onto the REST statuses the
// callers tell apart.
func graphQLStatus(kind string) int {
	switch kind {
	case "FORBIDDEN":
		return http.StatusForbidden
	case "RATE_LIMITED":
		return http.StatusTooManyRequests
	case "NOT_FOUND":
		return http.StatusNotFound
	}
	return http.StatusUnprocessableEntity
}

const threadsQuery = `query($owner: String!, $name: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { id isResolved comments(first: 1) { nodes { databaseId author { login } } } }
      }
    }
  }
}`

// ReviewThreads are the pull request's review threads.
func (c Client) ReviewThreads(ctx context.Context, number int) ([]Thread, error) {
	owner, name, _ := strings.Cut(c.Repository, "/")
	var out []Thread
	var after any
	for page := 0; page < maxPages; page++ {
		var data struct {
			Repository struct {
				PullRequest struct {
					ReviewThreads struct {
						PageInfo struct {
							HasNextPage bool   `json:"hasNextPage"`
							EndCursor   string `json:"endCursor"`
						} `json:"pageInfo"`
						Nodes []struct {
							ID         string `json:"id"`
							IsResolved bool   `json:"isResolved"`
							Comments   struct {
								Nodes []struct {
									DatabaseID int64 `json:"databaseId"`
									Author     struct {
										Login string `json:"login"`
									} `json:"author"`
								} `json:"nodes"`
							} `json:"comments"`
						} `json:"nodes"`
					} `json:"reviewThreads"`
				} `json:"pullRequest"`
			} `json:"repository"`
		}
		vars := map[string]any{"owner": owner, "name": name, "number": number, "after": after}
		if err := c.graphQL(ctx, threadsQuery, vars, &data); err != nil {
			return nil, err
		}
		rt := data.Repository.PullRequest.ReviewThreads
		for _, n := range rt.Nodes {
			t := Thread{ID: n.ID, Resolved: n.IsResolved}
			if len(n.Comments.Nodes) > 0 {
				t.FirstID, t.FirstLogin = n.Comments.Nodes[0].DatabaseID, n.Comments.Nodes[0].Author.Login
			}
			out = append(out, t)
		}
		if !rt.PageInfo.HasNextPage {
			break
		}
		after = rt.PageInfo.EndCursor
	}
	return out, nil
}

// ResolveThread marks a review thread resolved.
func (c Client) ResolveThread(ctx context.Context, id string) error {
	const m = `mutation($id: ID!) { resolveReviewThread(input: {threadId: $id}) { thread { id isResolved } } }`
	var data any
	if err := c.graphQL(ctx, m, map[string]any{"id": id}, &data); err != nil {
		return fmt.Errorf("resolve review thread %s: %w", id, err)
	}
	return nil
}
