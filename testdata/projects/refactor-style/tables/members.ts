import { table, text, ref } from "tent"

export const members = table({
    columns: {
        name: text(),
        handle: text({
            optional: true,
            was: [
                "nick",
                "alias"
            ]
        }),
        invitedBy: ref("members", { optional: true })
    },
    indexes: [
        ["handle"],
        ["name", "handle"]
    ]
})

export const teams = table({
    columns: {
        title: text()
    }
})
