package dismiss

// GitHub is the scope of a dismissal recorded by a "/tribunal dismiss"
// reply on a pull request's review thread: the GitHub Action keeps it in
// a comment its own token wrote (ghaction.Dismissal) and hands it to the
// next review in the shared file's form.
const GitHub = "github"
