package pi.host.jev.internal;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One HTTPS POST to the provider (java.net.http): the key only in the {@code Authorization} header, the
 * whole exchange (headers and body) within the provider timeout, the response bounded, and the request
 * cancelled when the call is (a cancelled {@code sendAsync} future aborts the exchange and closes its
 * connection). Every way it can end is a {@link Reply}; nothing here ever holds the key in a message.
 */
final class JevClient {

    /** The provider's budget (spec §2.1: a 45-second timeout). */
    static final Duration PROVIDER_TIMEOUT = Duration.ofSeconds(45);
    /** The largest response read. */
    static final int MAX_RESPONSE_BYTES = 1024 * 1024;

    /** How an exchange ended. */
    sealed interface Reply {
    }

    /** The provider answered (any status); {@code retryAfter} is its Retry-After header, when sent. */
    record Answered(int status, byte[] body, Optional<String> retryAfter) implements Reply {
    }

    /** No answer within the budget. */
    record TimedOut() implements Reply {
    }

    /** The call was cancelled, and the request with it. */
    record Cancelled() implements Reply {
    }

    /** The provider could not be reached or broke the exchange; {@code what} names the failure, never the key. */
    record Unreachable(String what) implements Reply {
    }

    /** Builds the client on the first post (guarded by this). */
    private final Supplier<HttpClient> factory;
    private HttpClient http;
    private final Duration timeout;

    JevClient(HttpClient http, Duration timeout) {
        this(() -> http, timeout);
    }

    /**
     * A client whose {@link HttpClient} is built by {@code factory} on the first {@link #post}, not before:
     * building one starts its selector thread and initialises TLS (the default SSL context with the JDK's
     * trusted certificates, ~2.4 MiB of heap kept for the process's life), which a host whose user never
     * calls JevClassify (or never enabled Jev) should not carry (docs/performance-log.md, "branch idle3").
     */
    JevClient(Supplier<HttpClient> factory, Duration timeout) {
        this.factory = factory;
        this.timeout = timeout;
    }

    private synchronized HttpClient http() {
        if (http == null) {
            http = factory.get();
        }
        return http;
    }

    static HttpClient defaultClient() {
        // no redirects: a redirect would carry the key's header to wherever the provider points
        return HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(PROVIDER_TIMEOUT).build();
    }

    /**
     * Posts {@code body} and waits for the answer, at most the timeout.
     *
     * @param onCancel registers the cancellation of the call (it cancels the request)
     */
    Reply post(URI endpoint, String key, byte[] body, Consumer<Runnable> onCancel) {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(timeout)
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if ("http".equalsIgnoreCase(endpoint.getScheme())) {
            request.version(HttpClient.Version.HTTP_1_1); // a loopback gateway: no h2c upgrade dance
        }
        CompletableFuture<HttpResponse<byte[]>> exchange;
        try {
            exchange = http().sendAsync(request.build(), info -> new BoundedBody(MAX_RESPONSE_BYTES));
        } catch (IllegalArgumentException e) {
            return new Unreachable("the endpoint is not a URL the client can use");
        }
        onCancel.accept(() -> exchange.cancel(true));
        try {
            HttpResponse<byte[]> response = exchange.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return new Answered(response.statusCode(), response.body(),
                    response.headers().firstValue("Retry-After"));
        } catch (TimeoutException e) {
            exchange.cancel(true);
            return new TimedOut();
        } catch (CancellationException e) {
            return new Cancelled();
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            return new Cancelled();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof HttpTimeoutException) {
                return new TimedOut();
            }
            if (exchange.isCancelled() || cause instanceof CancellationException) {
                return new Cancelled();
            }
            return new Unreachable(describe(cause));
        }
    }

    /** The failure's class and message; an exception's message from the client names the host, not the key. */
    private static String describe(Throwable cause) {
        String message = cause instanceof IOException && cause.getMessage() != null ? ": " + cause.getMessage() : "";
        return cause.getClass().getSimpleName() + message;
    }
}
