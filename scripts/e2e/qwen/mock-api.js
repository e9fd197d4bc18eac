#!/usr/bin/env node
// The loopback mock of the model API for make e2e: an OpenAI-compatible
// chat API (../lib/chat-mock.js), recording every request.
'use strict';
require('../lib/chat-mock.js');
