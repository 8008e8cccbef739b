# Host unit tests (Check).
