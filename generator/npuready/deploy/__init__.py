"""The deploy pipeline (lint → partition → calibrate → PTQ → integer engine → parity gate → register)."""
