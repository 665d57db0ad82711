FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DATABASE_PATH=/data/stationmaster.sqlite3
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/* && useradd --create-home --uid 10001 stationmaster \
    && mkdir /data && chown stationmaster /data
WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
RUN pip install --no-cache-dir .
USER stationmaster
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
