-- Neovim's built-in LSP client on a gwctl workspace (tests/lsp_neovim.rs): opens routes.yaml,
-- waits for its diagnostics, asks for a hover on a parentRef and writes both to GWCTL_OUT.
-- Works with Neovim 0.7 (Debian's; `vim.lsp.start` came in 0.8).
local root = os.getenv("GWCTL_WS")
local out = os.getenv("GWCTL_OUT")
local lines = {}
local function finish()
  vim.fn.writefile(lines, out)
  vim.cmd("qa!")
end

vim.cmd("edit " .. vim.fn.fnameescape(root .. "/routes.yaml"))
local buf = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = "gwctl",
  cmd = { os.getenv("GWCTL_BIN"), "lsp" },
  root_dir = root,
})
if not client_id then
  table.insert(lines, "error: the client did not start")
  finish()
end
vim.lsp.buf_attach_client(buf, client_id)

local got = vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
if not got then
  table.insert(lines, "error: no diagnostics")
end
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or ""
  local first = d.message:gsub("\n.*", "")
  table.insert(lines, string.format("diagnostic %d:%d %s %s", d.lnum, d.col, code, first))
end

-- The parentRef `- name: edge` of the first route (line 10, 1-based).
local params = {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  position = { line = 9, character = 10 },
}
local responses = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, 30000)
for _, r in pairs(responses or {}) do
  if r.result and r.result.contents then
    table.insert(lines, "hover " .. r.result.contents.value:gsub("\n", " "))
  elseif r.err then
    table.insert(lines, "error: hover: " .. vim.inspect(r.err))
  end
end
vim.lsp.stop_client(client_id)
finish()
