import { project } from "tent"

// Written in another style: double quotes, four spaces, no trailing commas.
export default project({
    name: "style",
    users: "members"
})
