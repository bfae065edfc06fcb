-- Whether a caller at window `start` counts in the stored window (the same, or one window ahead).
local function counts_in(stored, start, length)
  return stored ~= nil and start <= stored and start >= stored - length
end
